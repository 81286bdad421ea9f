/** `ledger currencies list|create|create-fiat`. */
import { type Command, Option } from 'commander';
import { LOCAL_OPERATOR } from '../../service/actor.js';
import type { CurrencyView } from '../../schemas/currency.js';
import { printJson } from '../output.js';
import { printTable } from '../render/table.js';
import { checkedBody } from '../checked-body.js';
import { withService } from '../with-service.js';
import { collect } from '../paging.js';
import { parseInteger, parseLimit } from '../parse.js';

function printCurrencies(currencies: CurrencyView[]): void {
  printTable(['ID', 'CODE', 'NAME', 'SYMBOL', 'SCALE', 'TYPE', 'CAIP-19'],
    currencies.map((c) => [c.id, c.code, c.name, c.symbol, String(c.asset_scale), c.asset_type, c.caip19_id]));
}

export function registerCurrencyCommands(program: Command): void {
  const currencies = program.command('currencies').description('Currencies (fiat and crypto)');

  currencies.command('list')
    .description('List currencies, ordered by code')
    .option('--limit <n>', 'return one page of at most n currencies', parseLimit)
    .option('--cursor <cursor>', 'continue after a previous page')
    .addHelpText('after', '\nExample:\n  $ ledger currencies list')
    .action(withService(async (service, { json }, options: { limit?: number; cursor?: string }) => {
      const page = await collect((cursor) => service.listCurrencies({ limit: options.limit ?? 200, cursor }), options);
      if (json) printJson(page);
      else printCurrencies(page.data);
    }));

  currencies.command('create')
    .description('Create a currency')
    .requiredOption('--code <code>', 'unique code, e.g. USD or ETH')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--symbol <symbol>', 'display symbol')
    .requiredOption('--asset-scale <n>', 'decimal places of the smallest unit (0..38)', parseInteger)
    .addOption(new Option('--type <type>', 'asset type').choices(['fiat', 'crypto']).makeOptionMandatory())
    .requiredOption('--caip19 <id>', 'unique CAIP-19 asset id, e.g. eip155:1/slip44:60')
    .addHelpText('after', '\nExample:\n  $ ledger currencies create --code ETH --name Ether --symbol Ξ --asset-scale 18 --type crypto --caip19 eip155:1/slip44:60')
    .action(withService(async (service, { json }, options: { code: string; name: string; symbol: string; assetScale: number; type: 'fiat' | 'crypto'; caip19: string }) => {
      const body = await checkedBody(async () => (await import('../../schemas/currency.js')).CreateCurrencyBody, {
        code: options.code, name: options.name, symbol: options.symbol, asset_scale: options.assetScale,
        asset_type: options.type, caip19_id: options.caip19,
      });
      const currency = await service.createCurrency(LOCAL_OPERATOR, body);
      if (json) printJson({ data: currency });
      else process.stdout.write(`Created currency ${currency.code} (${currency.id})\n`);
    }));

  currencies.command('create-fiat <code>')
    .description('Create a fiat currency from its ISO 4217 code (name, symbol and decimals from CLDR)')
    .addHelpText('after', '\nExamples:\n  $ ledger currencies create-fiat USD\n  $ ledger currencies create-fiat JPY   # 0 decimal places')
    .action(withService(async (service, { json }, _options, code: string) => {
      const currency = await service.createFiatCurrency(LOCAL_OPERATOR, code);
      if (json) printJson({ data: currency });
      else process.stdout.write(`Created currency ${currency.code} ${currency.name} (${currency.symbol}, ${currency.asset_scale} decimals) (${currency.id})\n`);
    }));
}
