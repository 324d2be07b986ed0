import type Router from '@koa/router';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { badgeByCode } from '../../db/repositories/gamification.ts';
import { ApiError } from '../../lib/errors.ts';
import { escapeHtml } from '../http/escape-html.ts';
import type { RawEndpoint } from '../http/openapi.ts';
import type { RequestState } from '../http/state.ts';

const params = z.object({ file: z.string().regex(/^[a-z0-9_]+\.svg$/) });

/** The badges' icons, as the OpenAPI document lists them. */
export const BADGE_ICON_ENDPOINTS: readonly RawEndpoint[] = [
  {
    method: 'GET',
    path: '/badges/:file',
    summary: "A badge's icon (`iconUrl`): an SVG named by the badge's id, public",
    tag: 'Gamification',
    contentTypes: ['image/svg+xml'],
    params,
  },
];

/** A medal: a disc with the badge's initials, titled with its name for assistive technology. */
export function badgeIcon(name: string): string {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-labelledby="t"><title id="t">${escapeHtml(name)}</title><circle cx="32" cy="32" r="30" fill="#1d4ed8"/><circle cx="32" cy="32" r="24" fill="none" stroke="#ffffff" stroke-width="2"/><text x="32" y="40" font-family="sans-serif" font-size="20" font-weight="700" text-anchor="middle" fill="#ffffff">${escapeHtml(initials)}</text></svg>`;
}

export function mountBadgeIcons(router: Router<RequestState>, deps: { readonly db: Db }): void {
  router.get('/badges/:file', async (ctx) => {
    const file = params.safeParse(ctx.params);
    const badge = file.success
      ? await asSystem(deps.db, (tx) => badgeByCode(tx, file.data.file.slice(0, -'.svg'.length)))
      : undefined;
    if (!badge) throw new ApiError('not_found', 'Badge not found');
    ctx.status = 200;
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = badgeIcon(badge.name);
  });
}
