import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.data/', '.tools/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs', 'test/support/*.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['scripts/*.mjs', '*.js', 'test/support/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        require: 'readonly',
        module: 'writable',
        setImmediate: 'readonly',
      },
    },
  },
  {
    // Workflow code is replayed deterministically by Temporal: no Node built-ins and no I/O here.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'http', 'https', 'net', 'crypto', 'child_process', 'os'],
              message: 'Workflows must stay deterministic: no Node built-ins.',
            },
            {
              group: ['pg', 'kysely', 'koa', 'ioredis', '**/db/**', '**/api/**'],
              message: 'Workflows must not do I/O; call an activity instead.',
            },
            {
              group: ['@temporalio/activity', '@temporalio/client', '@temporalio/worker'],
              message: 'Workflows import only @temporalio/workflow.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'setImmediate', 'fetch'],
    },
  },
  {
    // The browser extension: plain JavaScript checked by tsc through JSDoc (extension/tsconfig.json),
    // which knows the browser's and the extension API's globals.
    files: ['extension/**/*.js'],
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['test/support/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
