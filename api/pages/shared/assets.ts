import { readFileSync } from 'node:fs';
import type Router from '@koa/router';
import type { RequestState } from '../../http/state.ts';
import { STYLESHEET_PATH } from '../paths.ts';

const STYLESHEET = readFileSync(new URL('./assets/pages.css', import.meta.url), 'utf8');

/** The pages' stylesheet, read once at start-up; browsers may keep it for an hour. */
export function mountPageAssets(router: Router<RequestState>): void {
  router.get(STYLESHEET_PATH, (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = STYLESHEET;
  });
}
