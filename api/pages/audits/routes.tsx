import { z } from 'zod';
import { runInstantAudit } from '../../../commands/audits/audit-commands.ts';
import { instantAuditBody } from '../../../commands/audits/audit.schema.ts';
import type { CommandContext } from '../../../commands/context.ts';
import { asUser } from '../../../db/doors.ts';
import { findInstantAudit, listAudits } from '../../../db/repositories/audits.ts';
import { notFound } from '../../../lib/errors.ts';
import { httpUrl } from '../../../lib/validation/http-url.ts';
import { toAuditListItem, toInstantAudit } from '../../audits/audit-view.ts';
import type { RequestState } from '../../http/state.ts';
import { auditsPath, AUDITS_PATH } from '../paths.ts';
import { commandErrors, parseForm, withoutBlanks } from '../shared/form-input.ts';
import { requireRole, type PageRouter, type SignedInRequest } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { AUDIT_LABELS, AuditsPage, type AuditsPageProps } from './view.tsx';

/** The page lists this many recent audits, and charts this many of a URL's. */
const RECENT_AUDITS = 20;
const HISTORY_AUDITS = 20;

/** What the page's address may name: an audit to show and a URL to chart; anything else is left out. */
const pageQuery = z.object({
  audit: z.uuid().optional().catch(undefined),
  url: httpUrl().optional().catch(undefined),
});

/**
 * `/dashboard/audits` for business users: an instant audit started from a form (the command of
 * `POST /api/audits/instant`), its result, the URL's score over time and the recent audits, all read
 * through the caller's RLS door as `GET /api/audits` reads them.
 */
export function mountAuditPages(pages: PageRouter, deps: CommandContext): void {
  const show = async (
    request: SignedInRequest,
    shown: Pick<AuditsPageProps, 'values' | 'errors'> = {},
    status = 200,
  ) => {
    const query = pageQuery.parse(request.ctx.query);
    const { audit, recent, history } = await asUser(deps.db, request.principal.claims, async (tx) => {
      const row = query.audit ? await findInstantAudit(tx, query.audit) : undefined;
      // Another organization's audit, or none: the 404 page, as for any item one may not see.
      if (query.audit && !row) throw notFound('Audit');
      const chartedUrl = row?.url ?? query.url;
      return {
        audit: row && toInstantAudit(row),
        recent: (await listAudits(tx, { limit: RECENT_AUDITS, offset: 0 })).rows.map(toAuditListItem),
        history: chartedUrl
          ? {
              url: chartedUrl,
              audits: (await listAudits(tx, { url: chartedUrl, limit: HISTORY_AUDITS, offset: 0 })).rows.map(
                toAuditListItem,
              ),
            }
          : undefined,
      };
    });
    renderPage(
      request.ctx,
      <AuditsPage
        csrf={request.csrf}
        viewer={request.viewer}
        shown={audit}
        history={history}
        recent={recent}
        {...shown}
      />,
      status,
    );
  };

  pages.signedIn('GET', AUDITS_PATH, async (request) => {
    requireRole(request, 'business');
    await show(request);
  });

  pages.signedIn('POST', AUDITS_PATH, async (request) => {
    requireRole(request, 'business');
    const values = { url: request.form.url ?? '' };
    const parsed = parseForm(instantAuditBody, withoutBlanks(values));
    if ('errors' in parsed) return show(request, { values, errors: parsed.errors }, 422);
    try {
      // The 10 seconds start when the request arrived, as for the API's POST.
      const receivedAt = (request.ctx.state as RequestState).receivedAt;
      const row = await runInstantAudit(deps, request.principal, parsed.data, receivedAt);
      seeOther(request.ctx, auditsPath({ audit: row.id }));
    } catch (error) {
      const refused = commandErrors(error, Object.keys(AUDIT_LABELS));
      await show(request, { values, errors: refused.errors }, refused.status);
    }
  });
}
