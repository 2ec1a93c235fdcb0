import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import localRules from './scripts/eslint/import-boundaries.mjs';

/** React and its widgets stay in the browser. */
const NO_REACT = { group: ['react', 'react-*', 'antd', '@ant-design/*'], message: 'the server never imports React' };

/** Plain JavaScript: outside the TypeScript project, so oxlint leaves it to ESLint. */
const JS_FILES = ['**/*.{js,mjs}'];

// `npm run lint` runs two tools side by side. Oxlint (.oxlintrc.json) runs the rules on the TypeScript
// files: ESLint's, typescript-eslint's (its type-aware ones on TypeScript's native compiler) and
// react-hooks'. ESLint runs what oxlint has no rule for, below: the import directions, the restricted
// imports and syntax, no-octal; and every rule on the plain JavaScript files, which are not in the
// TypeScript project. ESLint builds no TypeScript program: it only parses.
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'tests/bench/results/**', 'engine/schema/generated/**'] },
  tseslint.configs.base,
  {
    files: ['**/*.{ts,tsx}'],
    rules: { 'no-octal': 'error' },
  },
  // The JavaScript files get the recommended sets as they are; typescript-eslint's adjustments for
  // TypeScript files (rules the compiler checks off, no-var and prefer-const on) are oxlint's part.
  ...[js.configs.recommended, ...tseslint.configs.recommended.filter((config) => !config.files)].map((config) => ({ ...config, files: JS_FILES })),
  {
    files: JS_FILES,
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Import directions between the folders: one local rule that resolves every relative import
  // (static, `export ... from` and dynamic `import()`) to the file it lands on and refuses those that
  // cross a boundary (scripts/eslint/import-boundaries.mjs, which lists them), among them an area
  // reaching into another area's folder past its public entry `modules/<area>/index.ts`. Packages a
  // folder may not use are refused by `no-restricted-imports` below.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { local: localRules },
    rules: { 'local/import-boundaries': 'error' },
  },
  {
    files: ['engine/server/**', 'src/server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_REACT] }] },
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
            { group: ['react', 'react-*', 'react/*', 'antd', 'antd/*', '@rjsf/*'], message: 'engine/core is pure: no React' },
            { group: ['kysely', 'kysely/*', 'pg', '@electric-sql/*'], message: 'engine/core is pure: no database' },
            { group: ['node:*', 'fs', 'path', 'os', 'crypto', 'buffer', 'stream', 'util'], message: 'engine/core is pure: no Node APIs' },
          ],
        },
      ],
    },
  },
  {
    // One way to open a write transaction (src/server/db/transaction.ts): retries, after-commit work.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/db/transaction.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message: 'open write transactions with inTransaction (src/server/db/transaction.ts)',
        },
      ],
    },
  },
  {
    // SQL lives in each area's repositories; services hold the rules, routes the HTTP (src/server/modules/README.md).
    files: [
      'src/server/modules/**/*.service.ts',
      'src/server/modules/**/*.routes.ts',
      'src/server/modules/**/*.writer.ts',
      'src/server/modules/**/*.writers.ts',
      'src/server/modules/**/*.behaviour.ts',
      'src/server/modules/**/*.behaviours.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message: 'open write transactions with inTransaction (src/server/db/transaction.ts)',
        },
        {
          selector: "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]",
          message: 'SQL belongs in the area repository, not in a service, route, writer or behaviour',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'SQL belongs in the area repository, not in a service, route, writer or behaviour' },
      ],
    },
  },
);
