import {
  allHandlersFinished,
  condition,
  getExternalWorkflowHandle,
  log,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { Mutex } from 'async-mutex';
import type { OfferActivities } from '../activities/outreach/offer-activities.ts';
import type { TestReminderActivities } from '../activities/outreach/test-reminder-activities.ts';
import type { TestReminderKind } from '../lib/offer-messages.ts';
import { OFFER_EXPIRY_REMINDER_MS, OFFER_WINDOW_MS, type OfferOutcome } from '../lib/offers.ts';
import {
  answerOfferUpdate,
  offerQuery,
  offerWorkflowId,
  resumeOfferSignal,
  withdrawOfferSignal,
  type AcceptedSession,
  type OfferState,
  type OfferWorkflowInput,
} from './messages/offer.ts';
import { offerClosedSignal, offerHeldSignal, type ApprovedOffer } from './messages/recruitment.ts';
import { sessionWorkflowId } from './messages/session.ts';
import { deliverAll } from './notification.ts';
import { sessionWorkflow } from './session.ts';

const offers = proxyActivities<OfferActivities & TestReminderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});
// A tester's answer is a request waiting for its reply: a few attempts, then the update fails
// (the request answers 500 and may be tried again) rather than holding the offer's lock.
const answers = proxyActivities<OfferActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, maximumInterval: '10 seconds' },
});

const HOUR_MS = 60 * 60 * 1000;

/**
 * The reminders of an accepted offer's tester, in time order: inactivity after the study's
 * `reminderAfterHours` (when set), then 24 and 2 hours before the test is due (spec). Those whose
 * time has passed are left out.
 */
export function testReminders(
  session: AcceptedSession,
  now: number,
): { kind: TestReminderKind; at: string }[] {
  const due = Date.parse(session.dueAt);
  const planned: { kind: TestReminderKind; at: number }[] = [
    ...(session.reminderAfterHours
      ? [
          {
            kind: 'inactivity' as const,
            at: Date.parse(session.startedAt) + session.reminderAfterHours * HOUR_MS,
          },
        ]
      : []),
    { kind: 'due_24h', at: due - 24 * HOUR_MS },
    { kind: 'due_2h', at: due - 2 * HOUR_MS },
  ];
  return planned
    .filter((reminder) => reminder.at > now && reminder.at < due)
    .sort((a, b) => a.at - b.at)
    .map((reminder) => ({ kind: reminder.kind, at: new Date(reminder.at).toISOString() }));
}

/** Outcomes after which the offer's place is free for the next candidate. */
const FREES_PLACE: readonly OfferOutcome[] = ['declined', 'expired', 'withdrawn', 'filled'];

/**
 * One approved outreach message as the study's offer to its tester (a child of the study's
 * workflow, id `offer:<outreachId>`): sent at its scheduled time through the outbox, then open
 * for OFFER_WINDOW_MS with a reminder OFFER_EXPIRY_REMINDER_MS before it expires. An acceptance
 * starts the session's workflow; a decline, an expiry or a withdrawal tells the study, whose
 * matching proposes the next candidate. Found the study paused as it was to go out, it stays
 * unsent until the study sends `resume`. Withdrawn (`withdraw`) when its study is archived: an
 * offer not yet answered is withdrawn, and an accepted one's reminders stop.
 */
export async function offerWorkflow(input: OfferWorkflowInput): Promise<OfferState> {
  const { outreachId } = input;
  const state: OfferState = {
    stage: 'scheduled',
    expiresAt: null,
    outcome: null,
    session: null,
    remindersDue: [],
  };
  const lock = new Mutex();
  const now = () => new Date().toISOString();
  // The offer ends once its messages are delivered or given up: none is left behind by a closed offer.
  const deliveries: Promise<void>[] = [];
  const deliver = (notificationId: string | null) => {
    deliveries.push(deliverAll([notificationId]));
  };
  const settled = () => state.stage === 'answered' || state.stage === 'closed';
  let withdrawing = false;
  /** Waits until `at` unless `stop` holds first; true when it did (a timer is set only for a time ahead). */
  const stoppedBefore = async (at: number, stop: () => boolean) => {
    const wait = at - Date.now();
    return wait > 0 ? condition(stop, wait) : stop();
  };
  const answeredOrWithdrawn = () => settled() || withdrawing;
  setHandler(offerQuery, () => state);
  setHandler(withdrawOfferSignal, () => {
    withdrawing = true;
  });
  let resumed = false;
  setHandler(resumeOfferSignal, () => {
    resumed = true;
  });
  setHandler(answerOfferUpdate, (answer) =>
    lock.runExclusive(async () => {
      const result = await answers.answerOffer({ outreachId, answer, at: now() });
      // Recorded first: the acceptance is committed, so its reminders follow whatever comes next.
      if (result.session) state.session = result.session;
      if (result.session) await startSession(input.studyId, result.session);
      deliveries.push(deliverAll(result.notificationIds));
      if (result.outcome === 'accepted' || result.outcome === 'declined') {
        Object.assign(state, { stage: 'answered', outcome: result.outcome });
      } else if (FREES_PLACE.includes(result.outcome) && !settled()) {
        Object.assign(state, { stage: 'closed', outcome: result.outcome });
      }
      return { outcome: result.outcome, ...(result.session ? { sessionId: result.session.sessionId } : {}) };
    }),
  );

  if (!(await stoppedBefore(Date.parse(input.scheduledSendAt), () => withdrawing))) {
    let expiresAt = '';
    for (;;) {
      expiresAt = new Date(Date.now() + OFFER_WINDOW_MS).toISOString();
      const sent = await lock.runExclusive(async () => {
        if (settled()) return undefined;
        const result = await offers.sendOffer({ outreachId, sentAt: now(), expiresAt });
        if (result.sent) Object.assign(state, { stage: 'open', expiresAt });
        else if (result.held) state.stage = 'held';
        else Object.assign(state, { stage: 'closed', outcome: 'withdrawn' });
        return result;
      });
      deliver(sent?.notificationId ?? null);
      if (state.stage !== 'held') break;
      // The study was paused as the offer was to go out: it sends `resume` once active again.
      resumed = false;
      await tellStudy(outreachId, input.scheduledSendAt);
      await condition(() => resumed || withdrawing);
      if (withdrawing) break;
    }
    if (state.stage === 'open') {
      if (!(await stoppedBefore(Date.parse(expiresAt) - OFFER_EXPIRY_REMINDER_MS, answeredOrWithdrawn))) {
        deliver(await offers.remindOfferExpiry({ outreachId, at: now() }));
      }
      if (!(await stoppedBefore(Date.parse(expiresAt), answeredOrWithdrawn))) {
        await closeAs('expired', () => offers.expireOffer({ outreachId, at: now() }));
      }
    }
  }
  // The study stopped recruiting (archived): an offer not yet answered is withdrawn.
  if (withdrawing) await closeAs('withdrawn', () => offers.withdrawOffer({ outreachId, at: now() }));
  else if (state.outcome && FREES_PLACE.includes(state.outcome)) await tellStudy(outreachId);
  if (state.session) await remindBeforeTest(state.session);
  await condition(allHandlersFinished);
  await Promise.all(deliveries);
  return state;

  /** Records the offer's end unless an answer came first. */
  async function closeAs(outcome: 'expired' | 'withdrawn', record: () => Promise<boolean>): Promise<void> {
    await lock.runExclusive(async () => {
      if (settled()) return;
      // False: the record holds another end (an answer this workflow did not see); no outcome is claimed.
      Object.assign(state, { stage: 'closed', outcome: (await record()) ? outcome : null });
    });
  }

  /**
   * Durable timers for the accepted offer's reminders; each activity decides whether it is still
   * due. A withdrawal (the study archived) stops them.
   */
  async function remindBeforeTest(session: AcceptedSession): Promise<void> {
    state.remindersDue = testReminders(session, Date.now());
    while (state.remindersDue.length) {
      const next = state.remindersDue[0]!;
      if (await stoppedBefore(Date.parse(next.at), () => withdrawing)) return;
      deliver(await offers.remindTester({ sessionId: session.sessionId, kind: next.kind, at: now() }));
      state.remindersDue.shift();
    }
  }
}

/** The accepted offer's session runs in its own workflow, which outlives this one. */
async function startSession(studyId: string, session: AcceptedSession): Promise<void> {
  try {
    await startChild(sessionWorkflow, {
      workflowId: sessionWorkflowId(session.sessionId),
      args: [
        {
          sessionId: session.sessionId,
          studyId,
          startedAt: session.startedAt,
          dueAt: session.dueAt,
          maxDurationMinutes: session.maxDurationMinutes,
          status: 'active',
        },
      ],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/**
 * Tells the study (this workflow's parent) that the offer's place is free again, or, given when it
 * was to be sent, that it is held unsent for the study to send once resumed.
 */
async function tellStudy(outreachId: string, heldSince?: string): Promise<void> {
  const parent = workflowInfo().parent;
  if (!parent) return;
  const study = getExternalWorkflowHandle(parent.workflowId);
  try {
    if (heldSince) await study.signal(offerHeldSignal, { outreachId, scheduledSendAt: heldSince });
    else await study.signal(offerClosedSignal, outreachId);
  } catch (error) {
    // The study's workflow has ended (archived): nothing recruits any more.
    log.info('The study no longer takes the offer closing', { outreachId, error: String(error) });
  }
}

/** How many offer workflows a study starts, or signals, in one go (one workflow task, not one each). */
export const OFFERS_AT_ONCE = 50;

/** What a study's run that may continue as new gives `sendApprovedOffers`. */
export interface OfferSending {
  /** The offers started and not known to have closed; carried to the next run. */
  readonly live: Set<string>;
  /** True once the workflow continues as new: every wait ends and the run stops there. */
  readonly draining: () => boolean;
}

/**
 * The study's side: starts each approved message's offer workflow as a child (id
 * `offer:<outreachId>`). Offers wait while the study is paused (pausing stops new offers). Each
 * time the study is active again it also sends what the database holds approved and unsent (one
 * approved before this workflow last started). An offer that found the study paused as it was to
 * go out tells the study (`offerHeld`) and waits: once active, the study finds it running and
 * signals it `resume`. Once recruitment is over the unsent ones are withdrawn; archiving the
 * study signals every offer it started to withdraw.
 *
 * True once done (archived, every offer told); false when a run that may continue as new
 * (`sending`) stopped at a wait: its approved and live offers are carried to the next run, which
 * starts them OFFERS_AT_ONCE at a time and withdraws them as many at a time.
 */
export async function sendApprovedOffers(
  studyId: string,
  wants: { readonly active: () => boolean; readonly over: () => boolean; readonly archived: () => boolean },
  approved: ApprovedOffer[],
  sending?: OfferSending,
): Promise<boolean> {
  const started = sending?.live ?? new Set<string>();
  const stopping = sending?.draining ?? (() => false);
  const queue = (offer: ApprovedOffer) => {
    if (!approved.some((queued) => queued.outreachId === offer.outreachId)) approved.push(offer);
  };
  setHandler(offerHeldSignal, queue);
  const fromRecords = patched('held-offers');
  for (;;) {
    await condition(() => wants.over() || wants.active() || stopping());
    if (wants.over()) break;
    if (stopping()) return false;
    if (fromRecords) {
      for (const offer of await offers.unsentOffers({ studyId })) queue(offer);
    }
    while (wants.active()) {
      if (sending) {
        while (approved.length && !stopping()) {
          const batch = approved.splice(0, OFFERS_AT_ONCE);
          // Live before it starts: its `offerClosed` may come in the same task as its start.
          for (const offer of batch) started.add(offer.outreachId);
          await Promise.all(batch.map((offer) => startOffer(studyId, offer)));
        }
      } else {
        for (const offer of approved.splice(0)) {
          await startOffer(studyId, offer);
          started.add(offer.outreachId);
        }
      }
      await condition(() => wants.over() || !wants.active() || approved.length > 0 || stopping());
      if (stopping()) return false;
    }
  }
  await withdrawUnsent(studyId, approved, fromRecords);
  await condition(() => wants.archived() || stopping());
  if (!wants.archived()) return false;
  // An approval still in flight when recruitment ended lands here: withdrawn too.
  await withdrawUnsent(studyId, approved, fromRecords);
  if (!sending) {
    for (const outreachId of started) await signalOffer(outreachId, withdrawOfferSignal);
    return true;
  }
  while (started.size) {
    if (stopping()) return false;
    const batch = [...take(started, OFFERS_AT_ONCE)];
    await Promise.all(batch.map((outreachId) => signalOffer(outreachId, withdrawOfferSignal)));
    for (const outreachId of batch) started.delete(outreachId);
  }
  return true;
}

/** Starts the approved message's offer; one running already (held by a pause) is told to go out now. */
async function startOffer(studyId: string, offer: ApprovedOffer): Promise<void> {
  try {
    await startChild(offerWorkflow, {
      workflowId: offerWorkflowId(offer.outreachId),
      args: [{ ...offer, studyId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    // Its offer runs already: held by a pause, it goes out now (any other stage ignores this).
    await signalOffer(offer.outreachId, resumeOfferSignal);
  }
}

/** The first `count` values of a set, in insertion order. */
function* take<T>(values: Set<T>, count: number): Generator<T> {
  let taken = 0;
  for (const value of values) {
    if (taken++ >= count) return;
    yield value;
  }
}

/** Signals a running offer; one whose workflow has ended (answered, expired) has nothing to hear. */
async function signalOffer(outreachId: string, signal: typeof withdrawOfferSignal): Promise<void> {
  try {
    await getExternalWorkflowHandle(offerWorkflowId(outreachId)).signal(signal);
  } catch (error) {
    log.info('The offer has ended', { outreachId, signal: signal.name, error: String(error) });
  }
}

/** Withdraws the approved messages that never went out: those queued here, and those the database holds. */
async function withdrawUnsent(
  studyId: string,
  approved: ApprovedOffer[],
  fromRecords: boolean,
): Promise<void> {
  const at = new Date().toISOString();
  if (fromRecords) {
    approved.splice(0);
    await offers.withdrawUnsentOffers({ studyId, at });
    return;
  }
  for (const offer of approved.splice(0)) await offers.withdrawOffer({ outreachId: offer.outreachId, at });
}
