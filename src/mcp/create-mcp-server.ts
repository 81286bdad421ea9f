/**
 * Builds the ledger's MCP server over a tool context: the tools (with the JSON Schemas derived from
 * the API's TypeBox schemas, published as they are), the resources and the month-end close prompt.
 * The faces decide the transport: `ledger mcp` connects it to stdio, `ledger serve` to /mcp.
 *
 * Tools are served through the SDK's low-level request handlers rather than `registerTool`, whose
 * input schemas must be zod: the API's schemas are JSON Schema already, and validating with the
 * API's own validator gives the tools the API's exact error messages.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, McpError, ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import { isLedgerError } from '../domain/errors.js';
import { callTool, type ForbiddenListener, type UnexpectedErrorListener } from './call-tool.js';
import { MONTH_END_CLOSE, monthEndClosePrompt } from './prompts.js';
import { registerResources } from './resources.js';
import type { ToolContext } from './tool-context.js';
import { jsonSchemaOf } from './tool-inputs.js';
import { TOOLS } from './tools.js';

export interface McpServerOptions {
  version: string;
  onUnexpectedError?: UnexpectedErrorListener;
  onForbidden?: ForbiddenListener;
}

const INSTRUCTIONS = 'A double-entry bookkeeping ledger. Amounts are integer strings in minor units (the smallest unit of the '
  + 'currency: "25000" is 250.00 when asset_scale is 2). Read ledger://accounts for the chart of accounts and '
  + 'ledger://periods/open for the open periods. Entries are never edited or deleted: correct one with reverse_journal_entry. '
  + 'Use dry_run (and preview for close_period) to check a write first. Bank statements are imported by people: list_bank_lines '
  + 'shows their unmatched lines with the rules\' suggestions, get_bank_line_candidates the entries a line could match; dry-run '
  + 'post_bank_line or accept_bank_lines before posting. Tool errors are JSON: code, message, field, suggestion.';

export function createMcpServer(context: ToolContext, options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'ledger', title: 'ledger', version: options.version }, {
    capabilities: { tools: {}, prompts: {}, resources: {} }, instructions: INSTRUCTIONS,
  });
  const tools = TOOLS.map((tool) => ({
    name: tool.name, title: tool.title, description: tool.description, inputSchema: jsonSchemaOf(tool.input),
    annotations: { title: tool.title, readOnlyHint: !tool.writes, destructiveHint: false, idempotentHint: !tool.writes, openWorldHint: false },
  }));
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(context, request.params.name, request.params.arguments, { onUnexpected: options.onUnexpectedError, onForbidden: options.onForbidden }));
  server.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [MONTH_END_CLOSE] }));
  server.server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== MONTH_END_CLOSE.name) throw new McpError(ErrorCode.InvalidParams, `No prompt named ${request.params.name}`);
    try {
      return monthEndClosePrompt(request.params.arguments);
    } catch (error) {
      if (isLedgerError(error)) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  });
  registerResources(server, context);
  return server;
}
