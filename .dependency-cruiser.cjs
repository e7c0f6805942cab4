/**
 * The layer rules of docs/DESIGN ("Layout", "Rules of the house"), held by `npm run lint`.
 * Every rule is an error: a boundary that only warns is a boundary nobody keeps.
 * Cycles between whole features, and SQL in route files, are checked by scripts/lint-boundaries.mjs on this
 * cruise's output. Type-only imports count: a type pulled across a boundary couples the two sides as much as a value does.
 */
const FEATURE = '^apps/(server|hub|web)/src/features/([^/]+)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be understood, tested or moved apart; move the shared piece down.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'routes-not-to-repository',
      severity: 'error',
      comment: 'Routes are thin: authenticate, validate, authorise, call a service. Only services talk to repositories.',
      from: { path: '\\.routes\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      name: 'repository-not-up',
      severity: 'error',
      comment: 'A repository is the bottom layer (SQL only): it never calls services or routes.',
      from: { path: '\\.repository\\.ts$' },
      to: { path: '\\.(service|routes)\\.ts$' },
    },
    {
      name: 'service-not-to-routes',
      severity: 'error',
      comment: 'Services hold the rules and know nothing of HTTP routes.',
      from: { path: '\\.service\\.ts$' },
      to: { path: '\\.routes\\.ts$' },
    },
    {
      name: 'platform-not-to-features',
      severity: 'error',
      comment: 'platform/ is infrastructure that knows nothing of teams or users.',
      from: { path: '^apps/(server|hub)/src/platform/' },
      to: { path: '^apps/(server|hub)/src/features/' },
    },
    {
      name: 'http-not-to-features',
      severity: 'error',
      comment:
        'http/ (the guard, the request plumbing) sits under the features: it gets its lookups from app.ts and imports no feature. Tests may start features.',
      from: { path: '^apps/(server|hub)/src/http/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/(server|hub)/src/features/' },
    },
    {
      name: 'web-not-to-programs',
      severity: 'error',
      comment: 'The console shares only the contracts with the server and the Hub.',
      from: { path: '^apps/web/' },
      to: { path: '^(apps/server|apps/hub|packages/runtime)/' },
    },
    {
      name: 'apps-apart',
      severity: 'error',
      comment:
        "The server and the Hub are separate programs: what they share lives in packages/. Only the server's test harness may start a real Hub in process.",
      from: { path: '^apps/(server|hub)/', pathNot: '^apps/server/src/test/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'contracts-stand-alone',
      severity: 'error',
      comment: 'The contracts are the one definition every program imports; they import no program and no runtime.',
      from: { path: '^packages/contracts/' },
      to: { path: '^(apps|packages/runtime|e2e|scripts)/' },
    },
    {
      name: 'runtime-not-to-apps',
      severity: 'error',
      comment: 'The shared runtime knows no program.',
      from: { path: '^packages/runtime/' },
      to: { path: '^(apps|e2e|scripts)/' },
    },
    {
      name: 'web-features-not-to-app',
      severity: 'error',
      comment:
        "The console's app/ composes the features (routes, frame); features and the shared lib/ and components/ never reach back up into it. What they need from the frame (the console context, the route type) lives in lib/.",
      from: { path: '^apps/web/src/(features|lib|components)/' },
      to: { path: '^apps/web/src/app/' },
    },
    {
      name: 'feature-through-its-index',
      severity: 'error',
      comment:
        "A feature reaches another feature only through that feature's public entry, features/<name>/index.ts; its other files are internals.",
      from: { path: FEATURE },
      to: { path: '^apps/(server|hub|web)/src/features/([^/]+)/', pathNot: ['^apps/$1/src/features/$2/', '/index\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|data)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
