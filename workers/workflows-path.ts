import { fileURLToPath } from 'node:url';

/** The workflows' entry point, which Temporal's bundler starts from (a module of its own: the test runner bundles it without loading the activities). */
export const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
