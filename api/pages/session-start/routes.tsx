import { takeTestTokenForExtension } from '../../../commands/sessions/test-token-delivery.ts';
import type { CommandContext } from '../../../commands/context.ts';
import { ApiError } from '../../../lib/errors.ts';
import { sessionStartPath } from '../paths.ts';
import { requireRole, type PageRouter } from '../shared/page-routes.ts';
import { renderPage } from '../shared/render.ts';
import { sessionToStartOf } from './data.ts';
import { SessionStartPage } from './view.tsx';

/**
 * The session start page: the tester's own session, with a button that takes a fresh test token and
 * answers a page carrying it for the recorder (the extension's `handoff.js`, which trusts only the
 * service origin it was built for). The token is on that answer only (pages are `no-store`).
 */
export function mountSessionStartPages(pages: PageRouter, deps: CommandContext): void {
  pages.signedIn('GET', sessionStartPath(':id'), async (request) => {
    requireRole(request, 'tester');
    const session = await sessionToStartOf(deps.db, request);
    // Reached by accepting an offer: the recorder, where installed, presses the button itself.
    const autostart = request.ctx.query.start === '1';
    renderPage(
      request.ctx,
      <SessionStartPage
        csrf={request.csrf}
        viewer={request.viewer}
        session={session}
        autostart={autostart}
      />,
    );
  });

  pages.signedIn('POST', sessionStartPath(':id'), async (request) => {
    requireRole(request, 'tester');
    const session = await sessionToStartOf(deps.db, request);
    try {
      const { token, expiresAt } = await takeTestTokenForExtension(
        deps,
        request.principal.claims.sub,
        session.id,
      );
      const handoff = {
        serviceOrigin: new URL(deps.config.http.baseUrl).origin,
        testToken: token,
        expiresAt,
      };
      renderPage(
        request.ctx,
        <SessionStartPage csrf={request.csrf} viewer={request.viewer} session={session} handoff={handoff} />,
      );
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      renderPage(
        request.ctx,
        <SessionStartPage
          csrf={request.csrf}
          viewer={request.viewer}
          session={session}
          notice={error.message}
        />,
        409,
      );
    }
  });
}
