// The import boundaries `npm test` checks (`npm run boundaries`); tests/unit/boundaries.test.ts shows
// that each rule catches a crossing. Data flows one way: common/ holds the rules every side shares,
// the server and the browser sides never import each other, and nothing reaches back up.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'common-stands-alone',
      comment: 'common/ is shared by server, runtime and configurator, so it imports none of them.',
      severity: 'error',
      from: { path: '^common/' },
      to: { path: '^(src|server|configurator)/' },
    },
    {
      name: 'server-not-browser',
      comment: 'The server never imports the runtime or the configurator; shared rules live in common/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(src|configurator)/' },
    },
    {
      name: 'browser-not-server',
      comment: 'The runtime and the configurator reach the server over HTTP only.',
      severity: 'error',
      from: { path: '^(src|configurator)/' },
      to: { path: '^server/' },
    },
    {
      name: 'runtime-not-configurator',
      comment: 'The configurator uses the runtime (theme, preview, auth), never the other way round.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^configurator/' },
    },
    {
      name: 'components-not-app-shell',
      comment: 'Registered components and the theme sit below the app shell (src/app/).',
      severity: 'error',
      from: { path: '^src/(components|theme|flow|access|api|auth)/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'sdk-stands-alone',
      comment:
        'The React SDK (sdk/react/) is installed by host apps: it reaches Foyer over HTTP only and may bundle the ' +
        'shared rules of common/, never the runtime, the configurator or the server.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: '^(src|server|configurator|examples)/' },
    },
    {
      name: 'examples-use-the-sdk-package',
      comment: "The example host apps import the SDK as a package (@foyer/react), as a host app does, and nothing of Foyer's source.",
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(src|server|configurator|common|sdk/react/src)/' },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'Two capability folders that import each other are one capability in two places. A sub-folder and its parent ' +
        'may (a plugin registers its steps, which use its shared parts).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^((common|server|src|configurator)/[^/]+)' },
      to: { circular: true, pathNot: '^$1(/|$)' },
    },
    {
      name: 'no-file-cycles',
      comment: 'Two files that import each other (types too) cannot be read, tested or moved one without the other.',
      severity: 'error',
      from: { path: '^(common|server|src|configurator|sdk|examples)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|generated)/|^src/gql/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
