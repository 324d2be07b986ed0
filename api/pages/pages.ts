import type Router from '@koa/router';
import type { AuthDependencies } from '../auth/dependencies.ts';
import type { RequestState } from '../http/state.ts';
import { mountAdminPages } from './admin/routes.tsx';
import { mountAuditPages } from './audits/routes.tsx';
import { mountDashboardPage } from './dashboard/routes.tsx';
import { mountLocalCheckoutPages } from './local-checkout/routes.tsx';
import { mountNewStudyPages } from './new-study/routes.tsx';
import { mountOfferListPages } from './offers/routes.tsx';
import { PLAYER_SCRIPT_PATH, RRWEB_SCRIPT_PATH, STYLESHEET_PATH } from './paths.ts';
import { mountProfilePages } from './profile/routes.tsx';
import { mountQuizEditorPages } from './quiz-editor/routes.tsx';
import { mountQuizPages } from './quiz/routes.tsx';
import { mountRecorderDownload } from './recorder-download/routes.ts';
import { mountRecoveryPages } from './recovery/routes.tsx';
import { mountRegisterPages } from './register/routes.tsx';
import { mountReportPages } from './reports/routes.tsx';
import { mountMomentPages } from './moments/routes.tsx';
import { mountReviewPages } from './review/routes.tsx';
import { mountSessionStartPages } from './session-start/routes.tsx';
import { mountPageAssets } from './shared/assets.ts';
import type { CsrfSettings } from './shared/csrf.ts';
import { pageRouter } from './shared/page-routes.ts';
import { mountSignInPages } from './sign-in/routes.tsx';
import { mountStudyPages } from './study/routes.tsx';
import { mountTokenPages } from './tokens/routes.tsx';
import { mountWebhookPages } from './webhooks/routes.tsx';
import type { CommandContext } from '../../commands/context.ts';

/**
 * The offer email's signed links (`/offers/:id`): pages without sign-in or CSRF (the link's
 * signature stands for both), on the app's router, and in the OpenAPI document.
 */
export { mountOfferPages, OFFER_PAGE_ENDPOINTS } from './offers/routes.tsx';

export interface PageDependencies {
  readonly auth: AuthDependencies;
  /** What the pages' commands run over, as the REST routes' (commands/context.ts). */
  readonly commands: CommandContext;
  readonly csrf: CsrfSettings;
}

/**
 * The web pages of the people in the loop (docs/pages.md). Returns what it mounted (`METHOD path`,
 * the stylesheet included): pages are HTML for people, not part of the API's OpenAPI document.
 */
export function mountPages(router: Router<RequestState>, deps: PageDependencies): readonly string[] {
  mountPageAssets(router);
  const pages = pageRouter(router, deps.csrf);
  mountSignInPages(pages, deps.auth);
  mountRecoveryPages(pages, deps.auth);
  mountRegisterPages(pages, deps.auth);
  mountDashboardPage(pages, deps.auth.db);
  mountReviewPages(pages, deps.commands);
  mountSessionStartPages(pages, deps.commands);
  mountRecorderDownload(pages, deps.commands.config);
  // Before the study page, whose `/dashboard/jobs/:id` would take `new` for an unknown study.
  mountNewStudyPages(pages, deps.commands);
  mountStudyPages(pages, deps.commands);
  mountReportPages(pages, deps.commands);
  mountMomentPages(pages, deps.auth.db);
  mountTokenPages(pages, deps.auth);
  mountWebhookPages(pages, deps.commands);
  mountAuditPages(pages, deps.commands);
  mountOfferListPages(pages, deps.commands);
  mountLocalCheckoutPages(pages, deps.commands);
  mountProfilePages(pages, deps.commands);
  mountQuizPages(pages, deps.commands);
  mountAdminPages(pages, deps.commands);
  mountQuizEditorPages(pages, deps.commands);
  return [
    `GET ${STYLESHEET_PATH}`,
    `GET ${RRWEB_SCRIPT_PATH}`,
    `GET ${PLAYER_SCRIPT_PATH}`,
    ...pages.mounted,
  ];
}

/** Paths of pages (not the API): their forms post URL-encoded bodies. */
export const isPagePath = (path: string): boolean => !path.startsWith('/api/');
