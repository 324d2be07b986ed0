// The study workflow's messages (workflows/study.ts, shape of Temporal's `safe-message-handlers`
// sample): its id and input, and the signals, update and query the API, other workflows and the
// tests send it. The recruitment it runs has its own (recruitment.ts). Dependency-free: Temporal's
// definition helpers and types only, so the API imports it without the workflow's body.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { StudyStatus } from '../../lib/domain.ts';
import type { StudyStatusAction } from '../study-transitions.ts';
import type { ApprovedOffer, RecruitmentCarried } from './recruitment.ts';

/**
 * A run's history length (events) at which the study's workflow continues as new (unless the
 * server suggests it first): far below Temporal's 10,240-event warning and 51,200-event limit, with
 * room for the handlers still running when it is reached.
 */
export const STUDY_HISTORY_LIMIT = 4_000;
/** The lowest `historyLimit` taken: a new run's own start must not already reach it. */
export const MIN_STUDY_HISTORY_LIMIT = 100;

/** Where the study stands after completion: its payouts to start, then its report (Agent 4). */
export type StudyCompletionStep = 'pending' | 'payouts' | 'report' | 'done';

/**
 * What one run of a study's workflow hands to the next when it continues as new: everything the
 * run knew that the database does not say (the status is the input's `status`).
 */
export interface StudyCarriedState {
  /** How many settled tester reports the sessions have told of. */
  readonly reportsSettled: number;
  /** Matching should run once the study is active (a freed place, a resume, a capacity decision). */
  readonly matchingWanted: boolean;
  /** Approved outreach messages whose offers are not started yet. */
  readonly approvedOffers: readonly ApprovedOffer[];
  /** Offers started and not known to have closed: each is signalled `withdraw` when the study is archived. */
  readonly liveOffers: readonly string[];
  /** Session confirmations received and not yet checked against the study's target. */
  readonly confirmationsToCheck: number;
  readonly completion: StudyCompletionStep;
  /** In the `payouts` step: the payments whose payout workflows are still to start (null: not read yet). */
  readonly payoutsToStart: readonly string[] | null;
  readonly recruitment: RecruitmentCarried;
  /** This run's number in the workflow's chain of runs (the first is 1). */
  readonly run: number;
}

export interface StudyWorkflowInput {
  readonly studyId: string;
  /**
   * Where the study's life stands when the workflow starts: draft for a new study; the recorded
   * status for a study stored without a workflow (the seeded demo study), started on its first
   * change; the last run's status for a run that continues one.
   */
  readonly status?: StudyStatus;
  /**
   * History length (events) at which a run continues as new; default STUDY_HISTORY_LIMIT, never
   * below MIN_STUDY_HISTORY_LIMIT. Tests and the benchmark set a lower one; each run passes it on.
   */
  readonly historyLimit?: number;
  /** Set only by the workflow itself when it continues as new: the last run's state. */
  readonly carried?: StudyCarriedState;
}

export const studyWorkflowId = (studyId: string): string => `study:${studyId}`;

/** Sent by the payment webhook when the provider confirms the study's checkout. */
export const paymentConfirmedSignal = defineSignal<[]>('paymentConfirmed');
/** Pause, resume or archive; answers with the recorded status once the database holds it. */
export const changeStudyStatusUpdate = defineUpdate<StudyStatus, [StudyStatusAction]>('changeStatus');
export const studyStatusQuery = defineQuery<StudyStatus>('status');
/** Sent by a session workflow once its tester has confirmed (the session's id). */
export const sessionConfirmedSignal = defineSignal<[string]>('sessionConfirmed');
/** Sent by a session workflow once its tester report (Agent 3) is settled (the session's id). */
export const sessionReportedSignal = defineSignal<[string]>('sessionReported');
/** Sent by a session workflow once its session is cancelled (the session's id): its place is free. */
export const sessionCancelledSignal = defineSignal<[string]>('sessionCancelled');
