/**
 * Import rules of the workspace (docs/architecture.md, "Layers and import rules"), checked in CI
 * with `pnpm deps`. Type-only imports count (`tsPreCompilationDeps`): a type circle ties modules
 * together as much as a runtime one.
 * @type {import('dependency-cruiser').IConfiguration}
 */

/*
 * The folders of packages/admin-core/src, bottom up (docs/architecture.md, "Layers and import
 * rules"). A folder imports at runtime only from folders before it in this list, so no two folders
 * import each other; type-only imports (the declared interfaces) may point anywhere but never close
 * a module circle (`no-circular`). `behaviors` stands for the files directly in `behaviors/` (the
 * `Behavior` interface). The entry points, `core.ts`, `cli/` and `testing/` are on top of all.
 */
const LAYERS = [
  // Foundations.
  ['errors', 'validation', 'migrations', 'i18n', 'schema', 'database', 'storage', 'bindings', 'auth', 'audit', 'config'],
  // What the dispatch serves besides routes: the shell page, plugin client files and the admin application.
  ['shell', 'assets', 'ui'],
  // Services and declarations.
  ['behaviors', 'context', 'http', 'plugins', 'fields', 'controllers'],
  // Features: routes and operations.
  [
    'account',
    'lang',
    'navigation',
    'behaviors/options',
    'markdown',
    'backend',
    'behaviors/schema',
    'openapi',
    'settings',
    'behaviors/list',
    'behaviors/form',
    'behaviors/reorder',
    'behaviors/uploads',
    'behaviors/files',
    'behaviors/actions',
    'behaviors/partials',
    'behaviors/relations',
  ],
  // The local API.
  ['local'],
];
const SRC = '^packages/admin-core/src/';
const FOLDERS = LAYERS.flat();
/** The modules of one folder of the list (`behaviors`: only the files directly in it). */
const modulesOf = (folder) => (folder === 'behaviors' ? `${SRC}behaviors/[^/]+\\.ts$` : `${SRC}${folder}/`);
const ROOT_FILES = `${SRC}[^/]+\\.ts$`;
const layerRules = FOLDERS.map((folder, index) => ({
  name: `layer-${folder.replace('/', '-')}`,
  severity: 'error',
  comment: `${folder}/ imports at runtime only folders below it (docs/architecture.md, "Layers and import rules").`,
  from: { path: modulesOf(folder) },
  to: {
    path: [...FOLDERS.slice(index + 1).map(modulesOf), ROOT_FILES, `${SRC}(cli|testing)/`],
    dependencyTypesNot: ['type-only'],
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'every-folder-has-a-layer',
      severity: 'error',
      comment: 'A new folder of the core takes its place in LAYERS above (docs/architecture.md, "Layers and import rules").',
      from: {
        path: `${SRC}(?!(${[...FOLDERS.map((f) => (f === 'behaviors' ? 'behaviors/[^/]+\\.ts$' : `${f}/`)), 'cli/', 'testing/'].join('|')}))[^/]+/`,
      },
      to: {},
    },
    {
      name: 'core-tests-stand-alone',
      severity: 'error',
      comment:
        'The packages test on their own fixtures: nothing under packages/ imports the example app. The one exception is the admin application\'s browser flows (`packages/admin-ui/e2e/`), whose server is the example app: an application is tested against real controllers (docs/admin-ui.md, "Tests").',
      from: { path: '^packages/', pathNot: '^packages/admin-ui/e2e/' },
      to: { path: '^examples/' },
    },
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
      comment: 'A package is used through its entry points, not by relative paths into its src (`@cms/admin-ui/server` is `server.js`).',
      from: { path: '^(packages/([^/]+))/' },
      to: {
        path: '^packages/',
        pathNot: ['^$1/', '^packages/[^/]+/src/(index|adapter|testing|node)\\.ts$', '^packages/admin-ui/server\\.js$'],
      },
    },
    {
      name: 'admin-ui-is-browser-only',
      severity: 'error',
      comment:
        'The admin application is browser code: it never imports the core, the adapter, the plugins or Node built-ins (docs/admin-ui.md, "Package and serving"). It reads the API over HTTP, typed from the generated `src/api/schema.d.ts`.',
      from: { path: '^packages/admin-ui/src/' },
      to: { path: '^(packages/(admin-core|admin-koa|journal)/|examples/)' },
    },
    {
      name: 'admin-ui-has-no-node-built-ins',
      severity: 'error',
      from: { path: '^packages/admin-ui/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-imports-only-the-ui-folder',
      severity: 'error',
      comment: 'The core takes the application as data: at most `@cms/admin-ui/server` (where the built files are), never its sources.',
      from: { path: '^packages/admin-core/' },
      to: { path: '^packages/admin-ui/(?!server\\.js$)' },
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
