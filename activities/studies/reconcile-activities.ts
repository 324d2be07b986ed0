import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import {
  markSessionWorkflowsSeen,
  markStudyWorkflowsSeen,
  sessionsWithUnseenWorkflow,
  studiesWithUnseenWorkflow,
} from '../../db/repositories/lifecycle.ts';
import { offerWorkflowId } from '../../workflows/messages/offer.ts';
import { offerClosedSignal } from '../../workflows/messages/recruitment.ts';
import { sessionWorkflowId } from '../../workflows/messages/session.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import {
  ensureSessionWorkflow,
  ensureStudyWorkflow,
  signalIfRunning,
  startNotificationDelivery,
  workflowStatusOf,
} from '../../clients/temporal.ts';
import { untriedMessages } from '../../db/repositories/notification-outbox.ts';
import { closeDelivery, untriedDeliveries } from '../../db/repositories/webhooks.ts';
import { webhookDeliveryWorkflowId } from '../../workflows/messages/webhook-delivery.ts';
import { startWebhookDeliveries } from '../../clients/webhook-deliveries.ts';
import { closeOpenOffer, openOffersToCheck } from '../../db/repositories/offers.ts';
import { RECOVERY_MAIL_KINDS, TEST_TOKEN_KIND } from '../../lib/outbox-messages.ts';

/**
 * A row younger than this is left alone: its request may still be starting the workflow. Older,
 * a missing workflow means the start after the commit failed.
 */
export const RECONCILE_AFTER_MS = 2 * 60_000;

/** What the API queues and then starts the delivery of after its commit. */
const API_QUEUED_KINDS: readonly string[] = [TEST_TOKEN_KIND, ...RECOVERY_MAIL_KINDS];

export interface ReconcileDependencies {
  readonly db: Db;
}

/** What one batch did: rows looked at, and workflows started because there was none. */
export interface ReconcileBatch {
  readonly checked: number;
  readonly started: number;
}

/**
 * The lifecycle reconciler's work (workflows/reconcile.ts): live studies and sessions whose
 * workflow nobody has looked for since their row was committed. Each row's workflow is described
 * by id; when there is none it is started from the recorded state (`USE_EXISTING`, so a start
 * racing the API's own changes nothing). Either way the row is marked (`workflow_seen_at`) and
 * never looked at again, so a run costs nothing per healthy row.
 */
export function createReconcileActivities({ db }: ReconcileDependencies) {
  const cutoff = () => new Date(Date.now() - RECONCILE_AFTER_MS);

  /** One batch of rows of one kind: each one's workflow looked for and started when missing, then all marked. */
  async function reconcile<R extends { readonly id: string; readonly status: string }>(kind: {
    readonly name: 'study' | 'session';
    readonly unseen: (tx: Tx) => Promise<R[]>;
    readonly workflowId: (id: string) => string;
    readonly start: (client: Client, taskQueue: string, row: R) => Promise<void>;
    readonly markSeen: (tx: Tx, ids: readonly string[], at: Date) => Promise<void>;
  }): Promise<ReconcileBatch> {
    const rows = await asSystem(db, kind.unseen);
    const { client, info, log } = Context.current();
    let started = 0;
    for (const row of rows) {
      if ((await workflowStatusOf(client, kind.workflowId(row.id))) === undefined) {
        await kind.start(client, info.taskQueue, row);
        log.warn(`Started the workflow of a ${kind.name} that had none`, {
          [kind.name === 'study' ? 'studyId' : 'sessionId']: row.id,
          status: row.status,
        });
        started += 1;
      }
      Context.current().heartbeat();
    }
    // A retry after a failure midway looks at the batch again: the rows found then are left alone.
    await asSystem(db, (tx) =>
      kind.markSeen(
        tx,
        rows.map((row) => row.id),
        new Date(),
      ),
    );
    return { checked: rows.length, started };
  }

  return {
    reconcileStudyWorkflows: ({ limit }: { limit: number }): Promise<ReconcileBatch> =>
      reconcile({
        name: 'study',
        unseen: (tx) => studiesWithUnseenWorkflow(tx, cutoff(), limit),
        workflowId: studyWorkflowId,
        start: ensureStudyWorkflow,
        markSeen: markStudyWorkflowsSeen,
      }),

    /**
     * Messages the API queued (a recovery link, a test token) whose delivery has not started: their
     * delivery is started (`USE_EXISTING`: one already running is left alone). Not marked: a row
     * stays until its delivery tries it, so a worker that was down is caught up the next run.
     */
    async reconcileMessageDeliveries({ limit }: { limit: number }): Promise<ReconcileBatch> {
      const ids = await asSystem(db, (tx) => untriedMessages(tx, API_QUEUED_KINDS, cutoff(), limit));
      const { client, info, log } = Context.current();
      for (const id of ids) {
        await startNotificationDelivery(client, info.taskQueue, id);
        Context.current().heartbeat();
      }
      if (ids.length) log.warn('Started the delivery of messages queued without one', { count: ids.length });
      return { checked: ids.length, started: ids.length };
    },

    /**
     * Webhook deliveries committed a couple of minutes ago and never tried, oldest first, one batch
     * a run: one without a workflow (the worker that recorded it died before starting it, or
     * Temporal was unreachable) is started; one whose workflow ended without trying it (terminated
     * by hand) is marked failed, so it does not hold the head of the queue; a running one is left.
     */
    async reconcileWebhookDeliveries({ limit }: { limit: number }): Promise<ReconcileBatch> {
      const ids = await asSystem(db, (tx) => untriedDeliveries(tx, cutoff(), limit));
      const { client, info, log } = Context.current();
      let started = 0;
      for (const id of ids) {
        const status = await workflowStatusOf(client, webhookDeliveryWorkflowId(id));
        if (status === undefined) {
          await startWebhookDeliveries(client, info.taskQueue, [id]);
          started += 1;
        } else if (status !== 'RUNNING') {
          await asSystem(db, (tx) => closeDelivery(tx, id, 'failed'));
          log.warn('Closed a webhook delivery whose workflow ended without trying it', {
            deliveryId: id,
            status,
          });
        }
        Context.current().heartbeat();
      }
      if (started) log.warn('Started webhook deliveries that had no workflow', { count: started });
      return { checked: ids.length, started };
    },

    /**
     * Open offers whose workflow is gone (terminated by hand, or failed): nothing would take their
     * answer (the tester is told it is closed) or free their place. Each is closed, expired when its
     * time has passed and withdrawn otherwise, and its study is told its place is free. A running
     * workflow is left alone, even past the offer's expiry: a worker that was down catches up.
     */
    async reconcileOpenOffers({ limit }: { limit: number }): Promise<ReconcileBatch> {
      const now = new Date();
      const offers = await asSystem(db, (tx) => openOffersToCheck(tx, cutoff(), limit, now));
      const { client, log } = Context.current();
      let closed = 0;
      for (const offer of offers) {
        if ((await workflowStatusOf(client, offerWorkflowId(offer.id))) !== 'RUNNING') {
          const status = offer.offer_expires_at && offer.offer_expires_at <= now ? 'expired' : 'withdrawn';
          if (await asSystem(db, (tx) => closeOpenOffer(tx, offer.id, status, now))) {
            log.warn('Closed an open offer whose workflow was gone', { outreachId: offer.id, status });
            closed += 1;
            // Closed (committed) and not looked at again: a study not told now rematches on its recheck.
            try {
              await signalIfRunning(client, studyWorkflowId(offer.study_id), offerClosedSignal, offer.id);
            } catch (error) {
              log.warn('The study was not told of a closed offer', {
                outreachId: offer.id,
                error: String(error),
              });
            }
          }
        }
        Context.current().heartbeat();
      }
      return { checked: offers.length, started: closed };
    },

    reconcileSessionWorkflows: ({ limit }: { limit: number }): Promise<ReconcileBatch> =>
      reconcile({
        name: 'session',
        unseen: (tx) => sessionsWithUnseenWorkflow(tx, cutoff(), limit),
        workflowId: sessionWorkflowId,
        start: ensureSessionWorkflow,
        markSeen: markSessionWorkflowsSeen,
      }),
  };
}

export type ReconcileActivities = ReturnType<typeof createReconcileActivities>;
