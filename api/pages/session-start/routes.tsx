import { takeTestTokenForExtension } from '../../../commands/sessions/test-token-delivery.ts';
import type { CommandContext } from '../../../commands/context.ts';
import { ApiError } from '../../../lib/errors.ts';
import { sessionStartPath } from '../paths.ts';
import { offeredRecorder } from '../recorder-download/offered.ts';
import { requireRole, type PageRouter, type SignedInRequest } from '../shared/page-routes.ts';
import { renderPage } from '../shared/render.ts';
import { sessionToStartOf, type SessionToStart } from './data.ts';
import { SessionStartPage, type SessionStartPageProps } from './view.tsx';

/**
 * The session start page: the tester's own session, with a button that takes a fresh test token and
 * answers a page carrying it for the recorder (the extension's `handoff.js`, which trusts only the
 * service origin it was built for). The token is on that answer only (pages are `no-store`).
 */
export function mountSessionStartPages(pages: PageRouter, deps: CommandContext): void {
  /** The page for the signed-in tester, with what this answer adds (a hand-over, a notice). */
  const show = async (
    request: SignedInRequest,
    session: SessionToStart,
    shown: Pick<SessionStartPageProps, 'handoff' | 'notice' | 'autostart'>,
    status = 200,
  ) => {
    const { recorderPackageDir, baseUrl } = deps.config.http;
    const recorder = await offeredRecorder(recorderPackageDir, baseUrl);
    const page = (
      <SessionStartPage
        csrf={request.csrf}
        viewer={request.viewer}
        session={session}
        recorder={recorder}
        {...shown}
      />
    );
    renderPage(request.ctx, page, status);
  };

  pages.signedIn('GET', sessionStartPath(':id'), async (request) => {
    requireRole(request, 'tester');
    const session = await sessionToStartOf(deps.db, request);
    // Reached by accepting an offer: the recorder, where installed, presses the button itself.
    await show(request, session, { autostart: request.ctx.query.start === '1' });
  });

  pages.signedIn('POST', sessionStartPath(':id'), async (request) => {
    requireRole(request, 'tester');
    const session = await sessionToStartOf(deps.db, request);
    try {
      const tester = request.principal.claims.sub;
      const { token, expiresAt } = await takeTestTokenForExtension(deps, tester, session.id);
      const serviceOrigin = new URL(deps.config.http.baseUrl).origin;
      await show(request, session, { handoff: { serviceOrigin, testToken: token, expiresAt } });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      await show(request, session, { notice: error.message }, 409);
    }
  });
}
