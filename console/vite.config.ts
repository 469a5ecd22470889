import { defineConfig } from 'vite';

// The console's sources are this folder; `npm run build` (from the repository's root) writes the
// bundle to dist/console, which the API serves at /console.
const here = decodeURIComponent(new URL('.', import.meta.url).pathname);

export default defineConfig({
  root: here,
  base: '/console/',
  // Preact's automatic JSX runtime through Vite's own transform: no Babel.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    outDir: `${here}../dist/console`,
    emptyOutDir: true,
    // Every script is a file of the bundle: the page's policy allows no inline script.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  logLevel: 'warn',
});
