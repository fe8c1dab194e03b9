// The import-cycle check of the whole repo (dependency-cruiser), run by `npm run lint` and
// `npm test`'s lint step: `depcruise --config .dependency-cruiser.cjs <dirs>`. ESLint's
// import-x/no-cycle ignores `import type`, and every cycle the repo had was one: a route module
// taking its context type back from the app.ts that registers it. This check counts type-only
// imports too (`tsPreCompilationDeps`), follows workspace packages (`@wayfarer/*`) through their
// package.json `exports` into their sources, and stays fast (a few seconds). The other layering
// rules (pure domain/, package entries only) are ESLint's (eslint.config.js).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A module reaches itself again through its imports (type-only imports count). Move the ' +
        'shared piece to a module of its own that both import, e.g. a route context type in ' +
        'src/routes/context.ts rather than in src/app.ts, which imports the routes.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(node_modules|dist|coverage|artifacts)/|^\\.data/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
