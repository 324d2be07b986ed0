import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layering of ../shared/DESIGN.md ("Layout") and docs/ARCHITECTURE.md: what each top-level
// folder may import from the others. `types` folders may be imported for their types only.
// scripts/ and test/ may import everything.
const FOLDERS = [
  'activities',
  'api',
  'clients',
  'commands',
  'config',
  'db',
  'facial-engine',
  'lib',
  'scripts',
  'test',
  'workers',
  'workflows',
];
const LAYERS = {
  lib: { may: [] },
  config: { may: ['lib'] },
  db: { may: ['config', 'lib'] },
  clients: { may: ['config', 'db', 'lib', 'workflows'] },
  commands: { may: ['clients', 'config', 'db', 'lib', 'workflows'] },
  activities: { may: ['clients', 'commands', 'config', 'db', 'lib', 'workflows'] },
  api: { may: ['clients', 'commands', 'config', 'db', 'lib', 'workflows'] },
  'facial-engine': { may: ['clients', 'config', 'lib'] },
  workers: { may: ['activities', 'clients', 'commands', 'config', 'db', 'lib', 'workflows'] },
  workflows: {
    may: ['lib'],
    types: ['activities', 'clients'],
    also: [
      {
        group: ['node:*', 'fs', 'path', 'http', 'https', 'net', 'crypto', 'child_process', 'os'],
        message: 'Workflows must stay deterministic: no Node built-ins.',
      },
      {
        group: ['pg', 'kysely', 'koa', 'ioredis'],
        message: 'Workflows must not do I/O; call an activity instead.',
      },
      {
        group: ['@temporalio/activity', '@temporalio/client', '@temporalio/worker'],
        message: 'Workflows import only @temporalio/workflow.',
      },
    ],
  },
};

function layers() {
  return Object.entries(LAYERS).map(([folder, { may, types = [], also = [] }]) => ({
    files: [`${folder}/**/*.{ts,tsx}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...FOLDERS.filter((other) => other !== folder && !may.includes(other)).map((other) => ({
              group: [`**/${other}/**`],
              ...(types.includes(other) ? { allowTypeImports: true } : {}),
              message: `${folder}/ may ${types.includes(other) ? 'import only types' : 'not import'} from ${other}/ (docs/ARCHITECTURE.md, Layers).`,
            })),
            ...also,
          ],
        },
      ],
    },
  }));
}

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
  ...layers(),
  {
    // Workflow code is replayed deterministically by Temporal: no Node built-ins and no I/O here.
    files: ['workflows/**/*.ts'],
    rules: { 'no-restricted-globals': ['error', 'process', 'setImmediate', 'fetch'] },
  },
  {
    // The browser extension: plain JavaScript checked by tsc through JSDoc (extension/tsconfig.json),
    // which knows the browser's and the extension API's globals.
    files: ['extension/**/*.js'],
    rules: { 'no-undef': 'off' },
  },
  {
    // The audit's in-page scripts: classic scripts, read as text and run in the audited page,
    // checked by tsc through JSDoc (activities/audits/page-script/tsconfig.json) with the browser's
    // globals and each other's (resolve-selector.js declares the kit's resolve()); and the replay
    // pages' player (api/pages/player/tsconfig.json), served as it is.
    files: ['activities/audits/page-script/*.js', 'api/pages/player/*.js'],
    languageOptions: { sourceType: 'script' },
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
