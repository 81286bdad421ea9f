/**
 * Runs one tool call the way /api/v1 runs a request: authenticate, check the tool's permission,
 * validate the arguments against its schema (the API's validator and messages), then call the
 * service. Every failure becomes an MCP tool error whose text is the API's JSON error body
 * (`code`, `message`, `field`, `suggestion`), so an agent reads the same error over either face.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ErrorCode, isLedgerError, type LedgerError } from '../domain/errors.js';
import { assertMatches } from '../schemas/validate.js';
import { LOCAL_OPERATOR, requirePermission } from '../service/actor.js';
import type { ToolContext } from './tool-context.js';
import { TOOLS, type LedgerTool } from './tools.js';

interface ErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
  suggestion?: string;
}

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

export type UnexpectedErrorListener = (error: unknown, tool: string) => void;
/** Told of a call refused for lack of permission: /mcp writes the security log's event, as /api/v1 does for a 403. */
export type ForbiddenListener = (error: LedgerError, tool: string) => void;

export interface CallListeners {
  onUnexpected?: UnexpectedErrorListener | undefined;
  onForbidden?: ForbiddenListener | undefined;
}

export async function callTool(context: ToolContext, name: string, args: unknown, listeners: CallListeners = {}): Promise<CallToolResult> {
  const tool = byName.get(name);
  if (tool === undefined) {
    return toolError({ code: 'NOT_FOUND', message: `No tool named ${name}`, field: 'name', suggestion: 'Call tools/list for the tools this server offers' });
  }
  try {
    return await run(context, tool, args ?? {});
  } catch (error) {
    if (isLedgerError(error)) {
      if (error.code === 'FORBIDDEN') listeners.onForbidden?.(error, name);
      return toolError({ code: error.code, message: error.message, field: error.field, suggestion: error.suggestion });
    }
    listeners.onUnexpected?.(error, name);
    return toolError({ code: 'INTERNAL_ERROR', message: 'Internal error', suggestion: 'Retry later; if it persists, report it with the server\'s log' });
  }
}

async function run(context: ToolContext, tool: LedgerTool, args: unknown): Promise<CallToolResult> {
  const actor = await context.authenticate();
  if (tool.permission !== undefined && actor !== undefined) requirePermission(actor, tool.permission);
  assertMatches(tool.input, args);
  const answer = tool.expensive === true
    ? await context.service.expensiveRead(actor ?? LOCAL_OPERATOR, () => tool.run(context, args))
    : await tool.run(context, args);
  return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.body };
}

function toolError(error: ErrorBody): CallToolResult {
  const body: ErrorBody = { code: error.code, message: error.message };
  if (error.field !== undefined) body.field = error.field;
  if (error.suggestion !== undefined) body.suggestion = error.suggestion;
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: { ...body } };
}
