// ESLint for every TypeScript file: the recommended JavaScript and typescript-eslint rules, React's
// hook rules for the browser side, and nothing that Prettier decides (formatting is Prettier's).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'sdk/react/dist/',
      'examples/host-app/dist/',
      'src/gql/',
      'server/graphql/generated/',
      'common/generated/',
      'src/flow/generated/',
      'tests/server/oidc/authjs/node_modules/',
      'bench/results/',
      '.foyer/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'configurator/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The two classic hook rules; the React Compiler's stricter ones need the compiler.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  prettier,
);
