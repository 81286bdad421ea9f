/** `ledger mcp`: serves the Model Context Protocol over stdio for a local agent (docs/agents.md). */
import type { Command } from 'commander';
import { globals } from '../global-options.js';

export function registerMcpCommand(program: Command): void {
  program.command('mcp')
    .description('Serve the Model Context Protocol over stdio for an AI agent: the ledger\'s tools, resources and prompts; '
      + 'writes act as the --api-key user (LEDGER_API_KEY)')
    .addHelpText('after', '\nExample:\n  $ ledger mcp --db books.db --api-key tsk_...\n\nAn agent\'s MCP client starts this command and talks to it over stdin and stdout; see docs/agents.md.')
    .action(async (_options, command: Command) => {
      const { db, apiKey } = globals(command);
      const { serveMcpOverStdio } = await import('../../app/serve-mcp.js');
      await serveMcpOverStdio({ database: db, apiKey });
    });
}
