import { describe, expect, it } from 'vitest';
import { USE_CASES } from '../service/use-cases.js';
import { TOOLS } from './tools.js';

describe('the MCP tools', () => {
  it('that write are the table\'s write use cases, with their names and permissions', () => {
    const byName = new Map<string, (typeof USE_CASES)[keyof typeof USE_CASES]>(Object.values(USE_CASES).map((useCase) => [useCase.name, useCase]));
    for (const tool of TOOLS.filter((candidate) => candidate.writes)) {
      const useCase = byName.get(tool.name);
      expect(useCase, tool.name).toBeDefined();
      expect({ writes: useCase!.writes, permission: useCase!.permission }, tool.name).toEqual({ writes: true, permission: tool.permission });
    }
  });
});
