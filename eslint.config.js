// One lint setup for the whole repo (flat config): typescript-eslint's recommended rules.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layering } from './eslint.layering.js';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'e2e/artifacts/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // pure domain/, workspaces imported through their package exports, one-way arrows between a
  // service's folders (eslint.layering.js)
  ...layering,
);
