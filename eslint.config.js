import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/api/**', '**/workers/**', '**/cli/**'] }],
    },
  },
  {
    files: ['api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/workers/**', '**/cli/**'] }] },
  },
  {
    files: ['workers/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/api/**', '**/cli/**'] }] },
  },
  {
    // The console runs in the browser: typed against the DOM by console/tsconfig.json (so TypeScript,
    // not no-undef, knows its globals), and it reaches the service only over HTTP. Of the service's
    // code it may import the answers' types (`import type` from src/contract), which compile away,
    // and the shared words of src/domain (the bounce categories, the origins), which import nothing
    // of the service and so bring nothing else into the bundle.
    files: ['console/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/api/**', '**/workers/**', '**/cli/**', 'node:*'] },
            {
              regex: '(^|/)src/(?!domain/)',
              message: 'The console may import only types from src/contract, and the shared words of src/domain.',
            },
            {
              group: ['**/src/contract/**'],
              allowTypeImports: true,
              message: 'The console may import only types from src/contract (`import type`).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['eslint.config.js', '.dependency-cruiser.js'], ...tseslint.configs.disableTypeChecked },
);
