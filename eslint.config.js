import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The engine stands apart from its screens (STYLE.md): it never imports the app or the designer. */
const ENGINE_APART = [{ group: ['**/src/**', '**/designer/**', '**/definitions/**', '**/locales/**'], message: 'engine/ must not import src/, designer/ or the shipped data' }];

/** React and its widgets stay in the browser. */
const NO_REACT = { group: ['react', 'react-*', 'antd', '@ant-design/*'], message: 'the server never imports React' };

/** Relative imports that climb into a folder of one of these names. */
function up(folders, message) {
  return [{ regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`, message }];
}

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
  // Import directions of DESIGN.md section 2, one block per folder. A later block's
  // `no-restricted-imports` for the same file replaces an earlier one, so the file sets below do not
  // overlap and each lists every restriction of its folder. Relative imports are matched as written:
  // `(\.\./)+app/` from src/screens is src/app, whatever the file's depth.
  {
    files: ['engine/schema/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...ENGINE_APART, ...up(['client', 'server', 'engine/client', 'engine/server'], 'engine/schema imports nothing of ours but itself')] }],
    },
  },
  {
    files: ['engine/client/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...ENGINE_APART, ...up(['server', 'engine/server'], 'engine/client and engine/server do not import each other')] }],
    },
  },
  {
    files: ['engine/server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...ENGINE_APART, ...up(['client', 'engine/client'], 'engine/client and engine/server do not import each other'), NO_REACT] }],
    },
  },
  {
    files: ['designer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!common/|app/public(\\.js)?$)',
              message: 'designer/ reaches the app only through src/app/public (and shared code in src/common), never src/server',
            },
            {
              regex: '^(\\.\\./)+engine/(?!(client|schema)/index(\\.js)?$|schema/api(\\.js)?$)',
              message: 'designer/ imports the engine through its public entries: engine/client/index, engine/schema/index, engine/schema/api',
            },
          ],
        },
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
    files: ['src/app/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...up(['server'], 'src/app never imports src/server'),
            { regex: '^(\\.\\./)+designer/(?!index(\\.js)?$)', message: 'src/app opens the designer only through designer/index' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/screens/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+app/(?!public(\\.js)?$)', message: 'screens reach the app only through src/app/public' },
            ...up(['server'], 'src/screens never imports src/server'),
            ...up(['designer'], 'only the shell opens the designer'),
          ],
        },
      ],
    },
  },
  // src/server has an area named `designer` of its own (modules/designer), so the top-level designer/
  // is told apart by depth: it lies exactly as many `../` up as the repository root.
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((depth) => ({
    files: [`src/server/${'*/'.repeat(depth)}*`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_REACT,
            { group: ['**/engine/client/**'], message: "the server never imports the engine's renderer" },
            { regex: `^(\\.\\./)+(app|screens)/`, message: 'src/server never imports src/app or src/screens' },
            { regex: `^(\\.\\./){${depth + 2}}designer(/|$)`, message: 'src/server never imports the designer' },
          ],
        },
      ],
    },
  })),
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
    files: ['src/server/modules/**/*.service.ts', 'src/server/modules/**/*.routes.ts', 'src/server/modules/**/*.writer.ts', 'src/server/modules/**/*.behaviours.ts'],
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
