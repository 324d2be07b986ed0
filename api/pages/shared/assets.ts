import { readFileSync } from 'node:fs';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { RequestState } from '../../http/state.ts';
import { rrwebBrowserBuild } from '../../../lib/recording/rrweb-build.ts';
import { PLAYER_SCRIPT_PATH, RRWEB_SCRIPT_PATH, STYLESHEET_PATH } from '../paths.ts';

const STYLESHEET = readFileSync(new URL('./assets/pages.css', import.meta.url), 'utf8');
const PLAYER_SCRIPT = readFileSync(new URL('../player/moment-player.js', import.meta.url), 'utf8');

function serve(ctx: Context, type: string, body: string): void {
  ctx.type = type;
  ctx.set('Cache-Control', 'public, max-age=3600');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = body;
}

/**
 * The pages' stylesheet and the replay pages' two scripts (the only scripts of the pages), read
 * once at start-up; browsers may keep them for an hour.
 */
export function mountPageAssets(router: Router<RequestState>): void {
  router.get(STYLESHEET_PATH, (ctx) => serve(ctx, 'text/css; charset=utf-8', STYLESHEET));
  router.get(RRWEB_SCRIPT_PATH, (ctx) => serve(ctx, 'text/javascript; charset=utf-8', rrwebBrowserBuild()));
  router.get(PLAYER_SCRIPT_PATH, (ctx) => serve(ctx, 'text/javascript; charset=utf-8', PLAYER_SCRIPT));
}
