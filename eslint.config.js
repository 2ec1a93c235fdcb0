import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'tests/bench/results/**', 'engine/schema/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Fastify plugins are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The engine stands apart from its screens (STYLE.md): it never imports the app or the designer.
    files: ['engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/**', '**/designer/**'], message: 'engine/ must not import src/ or designer/' }] },
      ],
    },
  },
  {
    // engine/core is the one copy of what browser and server must answer alike (rule groups,
    // calculations, text of values): pure, so it may import only engine/schema and decimal.js.
    files: ['engine/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/engine/client', '**/engine/client/**', '**/client/**'], message: 'engine/core must not import engine/client' },
            { group: ['**/engine/server', '**/engine/server/**', '**/server/**'], message: 'engine/core must not import engine/server' },
            { group: ['**/src/**', '**/designer/**'], message: 'engine/core must not import src/ or designer/' },
            { group: ['react', 'react-*', 'react/*', 'antd', 'antd/*', '@rjsf/*'], message: 'engine/core is pure: no React' },
            { group: ['kysely', 'kysely/*', 'pg', '@electric-sql/*'], message: 'engine/core is pure: no database' },
            { group: ['node:*', 'fs', 'path', 'os', 'crypto', 'buffer', 'stream', 'util'], message: 'engine/core is pure: no Node APIs' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/common/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../*', '**/server/**', '**/app/**', '**/screens/**', '**/engine/**'], message: 'src/common imports nothing else of ours' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**', 'engine/server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-*', 'antd', '**/engine/client/**'], message: 'the server never imports React' }] }],
    },
  },
  {
    // expect.any() and friends are typed any by Vitest.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
