/**
 * Import rules of the workspace (docs/architecture.md, "Import rules"), checked in CI with
 * `pnpm deps`. Type-only imports count (`tsPreCompilationDeps`): a type circle ties modules
 * together as much as a runtime one.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle in the core, except type-only ones inside one folder.',
      from: { path: '^packages/admin-core/src/([^/]+)/' },
      to: { circular: true, via: { pathNot: '^packages/admin-core/src/$1/' } },
    },
    {
      name: 'no-runtime-circular',
      severity: 'error',
      comment: 'No runtime import circle anywhere.',
      from: { path: '^(packages|examples)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'composition-root-on-top',
      severity: 'error',
      comment: 'core.ts composes the features; features use context/services.ts, never core.ts.',
      from: { path: '^packages/admin-core/src/', pathNot: '^packages/admin-core/src/(index|adapter|testing|node)\\.ts$' },
      to: { path: '^packages/admin-core/src/core\\.ts$' },
    },
    {
      name: 'core-is-framework-free',
      severity: 'error',
      comment: 'The core speaks framework-free requests: no Koa in @cms/admin-core.',
      from: { path: '^packages/admin-core/src/' },
      to: { path: '(^|/)node_modules/(koa|@koa/|koa-body)' },
    },
    {
      name: 'plugins-use-the-public-surface',
      severity: 'error',
      comment: 'Plugins (the journal, the example app) use @cms/admin-core, never an adapter or another package’s files.',
      from: { path: '^(packages/journal|examples/blog/src/plugins)/' },
      to: { path: '^(packages/admin-koa/|packages/admin-core/src/(?!index\\.ts$))' },
    },
    {
      name: 'no-reaching-into-packages',
      severity: 'error',
      comment: 'A package is used through its entry points, not by relative paths into its src.',
      from: { path: '^(packages/([^/]+))/' },
      to: { path: '^packages/', pathNot: ['^$1/', '^packages/[^/]+/src/(index|adapter|testing|node)\\.ts$'] },
    },
    {
      name: 'sources-do-not-import-tests',
      severity: 'error',
      from: { path: '/src/' },
      to: { path: '(^|/)test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
