// The study workflow's messages (workflows/study.ts, shape of Temporal's `safe-message-handlers`
// sample): its id and input, and the signals, update and query the API, other workflows and the
// tests send it. The recruitment it runs has its own (recruitment.ts). Dependency-free: Temporal's
// definition helpers and types only, so the API imports it without the workflow's body.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { StudyStatus } from '../../lib/domain.ts';
import type { StudyStatusAction } from '../study-transitions.ts';

export interface StudyWorkflowInput {
  readonly studyId: string;
  /**
   * Where the study's life stands when the workflow starts: draft for a new study; the recorded
   * status for a study stored without a workflow (the seeded demo study), started on its first change.
   */
  readonly status?: StudyStatus;
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
