import type { Db } from '../../../db/connection.ts';
import { notFound } from '../../../lib/errors.ts';
import { momentPath } from '../paths.ts';
import type { PageRouter, SignedInRequest } from '../shared/page-routes.ts';
import { renderPage } from '../shared/render.ts';
import { loadMomentReplay } from './data.ts';
import { MomentPage } from './view.tsx';
import { z } from 'zod';

const params = z.object({ id: z.uuid(), noteId: z.uuid() });

/**
 * The replay of a finding's moment (`/sessions/:id/moments/:noteId`), for whoever may read the
 * finding and watch its session's recording; anyone else gets the 404 page.
 */
export function mountMomentPages(pages: PageRouter, db: Db): void {
  pages.signedIn('GET', momentPath(':id', ':noteId'), async (request: SignedInRequest) => {
    const parsed = params.safeParse(request.ctx.params);
    if (!parsed.success) throw notFound('Finding');
    const replay = await loadMomentReplay(db, request.principal, parsed.data.id, parsed.data.noteId);
    if (!replay) throw notFound('Finding');
    renderPage(request.ctx, <MomentPage replay={replay} />, 200, { replay: true });
  });
}
