import type Router from '@koa/router';
import type { AuthDependencies } from '../auth/dependencies.ts';
import type { RequestState } from '../http/state.ts';
import type { SessionCommandDependencies } from '../sessions/create-session.ts';
import { mountPageAssets } from './assets.ts';
import type { CsrfSettings } from './csrf.ts';
import { mountDashboardPage } from './dashboard.pages.tsx';
import { STYLESHEET_PATH } from './layout.tsx';
import { pageRouter } from './page-routes.ts';
import { mountRecoveryPages } from './recovery.pages.tsx';
import { mountRegisterPages } from './register.pages.tsx';
import { mountReviewPages } from './review.pages.tsx';
import { mountSignInPages } from './sign-in.pages.tsx';
import { mountNewStudyPages } from './new-study.pages.tsx';
import { mountStudyPages } from './study.pages.tsx';
import { mountReportPages } from './reports.pages.tsx';
import { mountTokenPages } from './tokens.pages.tsx';
import { mountOfferListPages } from './offers.pages.tsx';
import { mountProfilePages } from './profile.pages.tsx';
import { mountQuizPages } from './quiz.pages.tsx';
import { mountAdminPages } from './admin.pages.tsx';
import { mountQuizEditorPages } from './quiz-editor.pages.tsx';
import { mountLocalCheckoutPages } from './local-checkout.pages.tsx';
import type { BillingDependencies } from '../billing/billing-dependencies.ts';

export interface PageDependencies {
  readonly auth: AuthDependencies;
  /** What the study and session commands run on: the database, Temporal, the task queue, the clock. */
  readonly commands: SessionCommandDependencies;
  readonly csrf: CsrfSettings;
  /** Checkout from the study page, and the local provider's checkout page. */
  readonly billing: BillingDependencies;
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
  // Before the study page, whose `/dashboard/jobs/:id` would take `new` for an unknown study.
  mountNewStudyPages(pages, deps.commands);
  mountStudyPages(pages, deps.commands, deps.billing);
  mountReportPages(pages, deps.auth.db);
  mountTokenPages(pages, deps.auth);
  mountOfferListPages(pages, deps.commands);
  mountLocalCheckoutPages(pages, deps.billing);
  const testers = { db: deps.auth.db, baseUrl: deps.auth.config.http.baseUrl, now: deps.auth.now };
  mountProfilePages(pages, testers);
  mountQuizPages(pages, testers);
  mountAdminPages(pages, deps.commands);
  mountQuizEditorPages(pages, deps.commands);
  return [`GET ${STYLESHEET_PATH}`, ...pages.mounted];
}

/** Paths of pages (not the API): their forms post URL-encoded bodies. */
export const isPagePath = (path: string): boolean => !path.startsWith('/api/');
