/**
 * The architecture's arrows, checked by `npm test` (npm run lint:deps): adapters (http, cli,
 * storage) depend on the service, the service on the domain, never the other way; only the
 * composition roots (src/app) choose adapters; each storage adapter keeps its driver to itself.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'The domain does no I/O and knows no other layer.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-imports-no-layer',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/(service|storage|http|cli|app|schemas)/' },
    },
    {
      name: 'service-knows-no-adapter',
      comment: 'The service talks to ports; it never imports an adapter or a composition root.',
      severity: 'error',
      from: { path: '^src/service/' },
      to: { path: '^src/(storage|http|cli|app)/' },
    },
    {
      name: 'schemas-know-no-adapter',
      severity: 'error',
      from: { path: '^src/schemas/' },
      to: { path: '^src/(service|storage|http|cli|app)/' },
    },
    {
      name: 'storage-knows-no-face',
      comment: 'Storage adapters implement the port; they do not know the faces or the composition roots.',
      severity: 'error',
      from: { path: '^src/storage/' },
      to: { path: '^src/(http|cli|app)/' },
    },
    {
      name: 'adapters-are-separate',
      comment: 'The SQLite and PostgreSQL adapters share only src/storage/shared.',
      severity: 'error',
      from: { path: '^src/storage/(sqlite|postgres|shared|contract)/' },
      to: { path: '^src/storage/([^/]+)/', pathNot: ['^src/storage/$1/', '^src/storage/shared/'] },
    },
    {
      name: 'faces-do-not-choose-stores',
      comment: 'HTTP and the CLI reach storage only through the composition roots in src/app.',
      severity: 'error',
      from: { path: '^src/(http|cli|mcp)/' },
      to: { path: '^src/storage/' },
    },
    {
      name: 'faces-are-separate',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/(cli|app)/' },
    },
    {
      name: 'mcp-is-a-face',
      comment: 'The MCP tools are a face like HTTP and the CLI: they call the service; the transports are chosen by http (/mcp) and app (ledger mcp).',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/(http|cli|app|storage)/' },
    },
    {
      name: 'layers-below-know-no-mcp',
      severity: 'error',
      from: { path: '^src/(domain|schemas|service|storage)/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'drivers-stay-in-their-adapter',
      comment: 'No driver type crosses the port: better-sqlite3 and pg are imported only by their adapter.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/storage/sqlite/'] },
      to: { path: 'node_modules/better-sqlite3/' },
    },
    {
      name: 'pg-stays-in-its-adapter',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/storage/postgres/'] },
      to: { path: 'node_modules/(pg|pg-[^/]+)/' },
    },
    {
      name: 'client-stands-alone',
      comment: 'The API client (clients/typescript) is its own package: it knows the server only through the types generated from the OpenAPI document, never its code.',
      severity: 'error',
      from: { path: '^clients/typescript/src/' },
      to: { path: '^(src|test|web|bench|clients/typescript/(scripts|test))/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
