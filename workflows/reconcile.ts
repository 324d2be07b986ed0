import { patched, proxyActivities } from '@temporalio/workflow';
import type { PrivacyActivities } from '../activities/privacy/privacy-activities.ts';
import type { ReconcileActivities, ReconcileBatch } from '../activities/studies/reconcile-activities.ts';

/** How often the lifecycle schedule (messages/reconcile.ts: LIFECYCLE_SCHEDULE_ID) starts a run. */
export const LIFECYCLE_INTERVAL = '5 minutes';
/** Rows one activity call looks at. */
export const RECONCILE_BATCH = 100;
/** A bound on one run's work; the rest waits for the next run. */
const MAX_BATCHES = 50;

const {
  reconcileStudyWorkflows,
  reconcileSessionWorkflows,
  reconcileMessageDeliveries,
  reconcileOpenOffers,
  reconcileWebhookDeliveries,
} = proxyActivities<ReconcileActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumInterval: '1 minute', maximumAttempts: 5 },
});

const { eraseExpiredRecordings } = proxyActivities<PrivacyActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumInterval: '1 minute', maximumAttempts: 5 },
});

export interface ReconcileSummary {
  readonly studiesChecked: number;
  readonly studiesStarted: number;
  readonly sessionsChecked: number;
  readonly sessionsStarted: number;
  /** Screen recordings erased because their retention ran out. */
  readonly recordingsErased: number;
  /** Messages the API queued whose delivery it had not started, started now. */
  readonly messagesStarted?: number;
  /** Open offers whose workflow was looked for, and those closed because it was gone. */
  readonly offersChecked?: number;
  readonly offersClosed?: number;
  readonly webhookDeliveriesStarted?: number;
}

/**
 * One run of the lifecycle reconciler: the API commits a study or session row, then starts its
 * workflow; when that start fails and nobody acts on the row again, nothing would ever run it
 * (no time limit, no signals). Every few minutes this starts the workflow of each live study and
 * session that is a couple of minutes old and has none, from its recorded state. Studies first,
 * so a repaired session's confirmation finds its study running (signal-with-start would start
 * it anyway). Then the messages the API queued without starting their delivery are started, and
 * the open offers whose workflow is gone are closed, the webhook deliveries never started are
 * started, and the screen recordings past their retention are erased.
 */
export async function lifecycleReconcileWorkflow(): Promise<ReconcileSummary> {
  const studies = await drain(reconcileStudyWorkflows);
  const sessions = await drain(reconcileSessionWorkflows);
  // One batch a run: the rows are not marked, so a second batch would find the same ones.
  const messages = patched('reconcile-messages')
    ? await reconcileMessageDeliveries({ limit: RECONCILE_BATCH })
    : undefined;
  // One batch a run too: each run takes the open offers looked at longest ago.
  const offers = patched('reconcile-offers')
    ? await reconcileOpenOffers({ limit: RECONCILE_BATCH })
    : undefined;
  const webhooks = patched('reconcile-webhooks')
    ? await reconcileWebhookDeliveries({ limit: RECONCILE_BATCH })
    : undefined;
  let recordingsErased = 0;
  for (let round = 0; round < MAX_BATCHES; round += 1) {
    const erased = await eraseExpiredRecordings({ limit: RECONCILE_BATCH });
    recordingsErased += erased.sessions;
    if (erased.sessions < RECONCILE_BATCH) break;
  }
  return {
    studiesChecked: studies.checked,
    studiesStarted: studies.started,
    sessionsChecked: sessions.checked,
    sessionsStarted: sessions.started,
    recordingsErased,
    ...(messages ? { messagesStarted: messages.started } : {}),
    ...(offers ? { offersChecked: offers.checked, offersClosed: offers.started } : {}),
    ...(webhooks ? { webhookDeliveriesStarted: webhooks.started } : {}),
  };
}

async function drain(batch: (input: { limit: number }) => Promise<ReconcileBatch>): Promise<ReconcileBatch> {
  let checked = 0;
  let started = 0;
  for (let round = 0; round < MAX_BATCHES; round += 1) {
    const done = await batch({ limit: RECONCILE_BATCH });
    checked += done.checked;
    started += done.started;
    if (done.checked < RECONCILE_BATCH) break;
  }
  return { checked, started };
}
