import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USE_CASES } from './use-cases.js';

const SRC = join(import.meta.dirname, '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).map((file) => join(folder, file));
}

describe('the use-case table', () => {
  it('names every use case by its key', () => {
    for (const [key, useCase] of Object.entries(USE_CASES)) expect(useCase.name).toBe(key);
  });

  it('gives a dry run only to writes, and a kept key only to writes', () => {
    for (const useCase of Object.values(USE_CASES)) {
      if (useCase.writes) continue;
      expect(useCase).not.toHaveProperty('dryRun');
      expect(useCase).not.toHaveProperty('idempotent');
    }
  });

  it('is the faces\' only way in: no face reaches into the service\'s context or its store', () => {
    const doors = ['http', 'cli', 'mcp', 'app'].flatMap(sourceFiles)
      .filter((file) => /\.ctx\b/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(doors).toEqual([]);
  });
});
