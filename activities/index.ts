import { DEVELOPMENT_JWT_SECRET } from '../config/index.ts';
import type { Db } from '../db/connection.ts';
import { createAgents, type Agents } from './ai/agents.ts';
import { createAiActivities } from './ai/ai-activities.ts';
import { createEmailSender, type EmailSender } from '../clients/email.ts';
import { createMessagingSender, LOCAL_OUTBOX_DIR, type MessagingSender } from '../clients/messaging.ts';
import { createOfferActivities } from './outreach/offer-activities.ts';
import type { OfferLinkSettings } from '../lib/offer-links.ts';
import { createTestReminderActivities } from './outreach/test-reminder-activities.ts';
import { createGamificationActivities } from './gamification/gamification-activities.ts';
import { createCommunityStatsActivities } from './community/community-stats-activities.ts';
import { createCapacityNoticeActivities } from './matching/capacity-notice-activities.ts';
import { createMatchingActivities } from './matching/matching-activities.ts';
import { createMilestoneActivities } from './notify/milestone-activities.ts';
import { createNotificationActivities } from './notify/notification-activities.ts';
import { createOutreachActivities } from './outreach/outreach-activities.ts';
import { createPaymentActivities, type PaymentActivityDependencies } from './payments/payment-activities.ts';
import { createPrivacyActivities } from './privacy/privacy-activities.ts';
import { createScreenshotRecordActivities } from './recordings/screenshot-records.ts';
import { createSessionActivities } from './sessions/session-activities.ts';
import { createStudyActivities } from './studies/study-activities.ts';
import {
  createPrototypeAuditActivities,
  type PrototypeAuditSettings,
} from './studies/prototype-audit-activities.ts';
import { createWebhookActivities } from './webhooks/delivery-activities.ts';
import type { UrlPolicy } from '../lib/url-guard.ts';

export interface ActivityDependencies {
  readonly db: Db;
  /** The messaging channel; without one, messages go to the local outbox (.data/outbox). */
  readonly messaging?: MessagingSender;
  /** Mail to testers without a chat and to businesses; without it, `.eml` files in the local outbox. */
  readonly email?: EmailSender;
  /** The origin and signing secret of offers' email answer links (workers/main.ts: the configuration). */
  readonly offerLinks?: OfferLinkSettings;
  /**
   * The payment provider, mail and webhook target of payouts, payment events and invoices
   * (workers/main.ts builds them from the configuration). Without them those activities are not
   * registered: a worker that runs no money workflows needs none.
   */
  readonly payments?: PaymentActivityDependencies;
  /** The AI agents over the configured providers (workers/main.ts); default: the local analyst. */
  readonly agents?: Agents;
  /** The AI activities' clock (due times, records); default the system's. Tests move it. */
  readonly aiClock?: () => Date;
  /** Days a screen recording is kept after its last chunk (RECORDING_RETENTION_DAYS); default 90. */
  readonly recordingRetentionDays?: number;
  /**
   * Where organizations' webhook deliveries may go: the audits' URL policy (workers/main.ts); by
   * default public addresses only. `attemptTimeoutMs` shortens an attempt's wait in tests.
   */
  readonly webhooks?: { readonly urlPolicy: UrlPolicy; readonly attemptTimeoutMs?: number };
  /**
   * Where the audits of studies' prototypes go (workers/main.ts: the audit settings); without them
   * a study's activation audits nothing (tests whose studies have no prototype to reach).
   */
  readonly prototypeAudits?: PrototypeAuditSettings;
}

/** Offer links of a worker started without a configuration: the development origin and secret. */
const LOCAL_OFFER_LINKS: OfferLinkSettings = {
  baseUrl: 'http://localhost:3000',
  secret: DEVELOPMENT_JWT_SECRET,
};

/** Every activity the worker registers, built over explicit dependencies. */
export function createActivities(deps: ActivityDependencies) {
  const agents = deps.agents ?? createAgents({ providers: [] });
  return {
    // A worker built without the payment activities (some tests) starts no payout.
    ...createStudyActivities({ db: deps.db, payoutsEnabled: deps.payments !== undefined }),
    ...createSessionActivities({ ...deps, payoutsEnabled: deps.payments !== undefined }),
    ...createPrototypeAuditActivities({ db: deps.db, audits: deps.prototypeAudits }),
    ...createPrivacyActivities(deps),
    ...createMatchingActivities({ db: deps.db }),
    ...createCapacityNoticeActivities({ db: deps.db }),
    ...createGamificationActivities({ db: deps.db, baseUrl: (deps.offerLinks ?? LOCAL_OFFER_LINKS).baseUrl }),
    ...createNotificationActivities({
      db: deps.db,
      messaging:
        deps.messaging ??
        createMessagingSender({ botToken: undefined, apiRoot: undefined, outboxDir: LOCAL_OUTBOX_DIR }),
      email:
        deps.email ??
        createEmailSender({ smtpUrl: undefined, from: 'noreply@localhost', outboxDir: LOCAL_OUTBOX_DIR }),
      offerLinks: deps.offerLinks ?? LOCAL_OFFER_LINKS,
    }),
    ...createOfferActivities({ db: deps.db }),
    ...createTestReminderActivities({ db: deps.db }),
    ...createMilestoneActivities({ db: deps.db, baseUrl: (deps.offerLinks ?? LOCAL_OFFER_LINKS).baseUrl }),
    ...(deps.payments ? createPaymentActivities(deps.payments) : {}),
    ...createAiActivities({
      db: deps.db,
      agents,
      ...(deps.aiClock ? { now: deps.aiClock } : {}),
    }),
    ...createOutreachActivities({ db: deps.db, agents }),
    ...createCommunityStatsActivities({ db: deps.db }),
    ...createScreenshotRecordActivities({ db: deps.db }),
    ...createWebhookActivities({
      db: deps.db,
      urlPolicy: deps.webhooks?.urlPolicy ?? { allowPrivate: false },
      baseUrl: (deps.offerLinks ?? LOCAL_OFFER_LINKS).baseUrl,
      ...(deps.webhooks?.attemptTimeoutMs ? { attemptTimeoutMs: deps.webhooks.attemptTimeoutMs } : {}),
    }),
  };
}
