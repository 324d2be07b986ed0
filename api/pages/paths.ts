// Every page's address (docs/pages.md), and only here: a page links to another through these, never
// by importing the other page's folder. A builder given `':id'` is the pattern its page mounts.

/** The pages' one stylesheet (`shared/assets.ts`). */
export const STYLESHEET_PATH = '/assets/pages.css';
/** The replay pages' scripts: rrweb's browser build, then the player's controls. */
export const RRWEB_SCRIPT_PATH = '/assets/rrweb.js';
export const PLAYER_SCRIPT_PATH = '/assets/moment-player.js';

// sign-in/: the password form, the emailed sign-in link, signing out.
export const LOGIN_PATH = '/login';
export const MAGIC_LINK_PATH = `${LOGIN_PATH}/magic-link`;
export const MAGIC_LINK_REQUEST_PATH = `${MAGIC_LINK_PATH}/request`;
export const LOGOUT_PATH = '/logout';

// recovery/: asking for a reset link, and the link's new-password form.
export const RESET_PASSWORD_PATH = '/reset-password';
export const RESET_PASSWORD_REQUEST_PATH = `${RESET_PASSWORD_PATH}/request`;

// register/
export const REGISTER_PATH = '/register';

// dashboard/, where signing in lands.
export const DASHBOARD_PATH = '/dashboard';

// profile/ and quiz/: the tester's own.
export const PROFILE_PATH = '/profile';
export const QUIZ_PATH = '/quiz';

// offers/: the tester's list, its answer forms, and the offer email's signed links.
export const OFFERS_PATH = '/offers';
export const offerAnswerPath = (offerId: string) => `${OFFERS_PATH}/${offerId}/answer`;
export const offerLinkPath = (offerId: string) => `${OFFERS_PATH}/${offerId}`;

// new-study/ and study/: a business's studies.
export const NEW_STUDY_PATH = '/dashboard/jobs/new';
export const studyPath = (studyId: string) => `/dashboard/jobs/${studyId}`;
export const studyCheckoutPath = (studyId: string) => `${studyPath(studyId)}/checkout`;
export const proposalActionPath = (studyId: string, proposalId: string, action: 'approve' | 'skip') =>
  `${studyPath(studyId)}/proposals/${proposalId}/${action}`;
export const outreachActionPath = (
  studyId: string,
  messageId: string,
  action: 'edit' | 'approve' | 'reject',
) => `${studyPath(studyId)}/outreach/${messageId}/${action}`;
export const sessionRatingPath = (studyId: string, sessionId: string) =>
  `${studyPath(studyId)}/sessions/${sessionId}/rating`;

// reports/: a tester report and a study report.
export const reportPath = (reportId: string) => `/reports/${reportId}`;
/** The replay of a finding's moment (one of the session's notes), framed by the report and review pages. */
export const momentPath = (sessionId: string, noteId: string) => `/sessions/${sessionId}/moments/${noteId}`;
/** Where the report page asks for its findings' pictures (a form's POST). */
export const reportScreenshotsPath = (reportId: string) => `/reports/${reportId}/screenshots`;
export const studyReportPath = (studyId: string) => `${studyPath(studyId)}/report`;

// session-start/: where accepting an offer leads; its button hands the session to the extension.
export { sessionStartAfterAcceptPath, sessionStartPath } from '../../lib/session-start.ts';

// recorder-download/: the recorder's package, built for this service, which the start page links.
export { RECORDER_DOWNLOAD_PATH } from '../../lib/recorder-package.ts';

// review/: the session's tester confirms its findings.
export const reviewPath = (sessionId: string) => `/sessions/${sessionId}/review`;

// audits/: instant audits, their results and a URL's score over time.
export const AUDITS_PATH = '/dashboard/audits';
/** The audits page showing an instant audit's result, or charting a URL's scores. */
export const auditsPath = (shown: { readonly audit?: string; readonly url?: string }) =>
  `${AUDITS_PATH}?${new URLSearchParams(Object.entries(shown).filter(([, value]) => value !== undefined)).toString()}`;

// tokens/: the organization's API tokens.
export const TOKENS_PATH = '/dashboard/tokens';
export const tokenRevokePath = (tokenId: string) => `${TOKENS_PATH}/${tokenId}/revoke`;

// webhooks/: the organization's webhook endpoints and their delivery logs.
export const WEBHOOKS_PATH = '/dashboard/webhooks';
export const webhookPath = (endpointId: string) => `${WEBHOOKS_PATH}/${endpointId}`;
export const webhookStatusPath = (endpointId: string) => `${WEBHOOKS_PATH}/${endpointId}/status`;
export const webhookDeletePath = (endpointId: string) => `${WEBHOOKS_PATH}/${endpointId}/delete`;

// admin/: capacity reviews and testers.
export const CAPACITY_REVIEWS_PATH = '/admin/capacity-reviews';
export const capacityReviewPath = (reviewId: string) => `${CAPACITY_REVIEWS_PATH}/${reviewId}`;
export const TESTERS_PATH = '/admin/testers';
export const testerPath = (testerId: string) => `${TESTERS_PATH}/${testerId}`;

// quiz-editor/
export const QUIZ_EDITOR_PATH = '/admin/quiz';

// local-checkout/: the local payment provider's stand-in for a hosted checkout page.
export const localCheckoutPath = (checkoutSessionId: string) =>
  `/billing/local-checkout/${checkoutSessionId}`;
