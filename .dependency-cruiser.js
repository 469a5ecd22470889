/**
 * The import graph's rules, run by `npm run lint` (docs/architecture.md, "What may import what").
 * ESLint's no-restricted-imports keeps the processes apart; these rules need the whole graph, as a
 * cycle is found only by following imports. `import type` counts: two modules whose types need each
 * other still cannot be read, moved or tested one without the other.
 */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A module reaches itself through its imports: move what both need down a layer.',
      severity: 'error',
      from: { path: '^(src|api|workers|cli)/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      comment:
        'Two folders reach each other through their files, though no one module does: move what both need down a layer.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(src|api|workers|cli)/' },
      to: { circular: true },
    },
    {
      name: 'domain-imports-only-domain',
      comment: 'src/domain/ holds the shared words at the bottom of the tree: it imports nothing else of the service.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^(src|api|workers|cli|console)/', pathNot: '^src/domain/' },
    },
    {
      name: 'contract-imports-only-domain',
      comment: 'src/contract/ stands on src/domain/ alone, so that every feature, and the console, may import it.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^(src|api|workers|cli|console)/', pathNot: '^src/(contract|domain)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
