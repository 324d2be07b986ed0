import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let build: string | undefined;

/**
 * rrweb's browser build (`window.rrweb`), read from its package the first time it is asked for:
 * the replay pages' player and the server's pictures of a moment replay with it.
 */
export function rrwebBrowserBuild(): string {
  build ??= readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('rrweb')), 'rrweb.umd.min.cjs'),
    'utf8',
  );
  return build;
}
