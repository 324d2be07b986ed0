import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  markSessionWorkflowSeen,
  markStudyWorkflowSeen,
  sessionsWithUnseenWorkflow,
  studiesWithUnseenWorkflow,
} from '../../db/repositories/lifecycle.ts';
import { sessionWorkflowId } from '../../workflows/session.ts';
import { studyWorkflowId } from '../../workflows/study.ts';
import { ensureSessionWorkflow } from '../sessions/session-workflow-start.ts';
import { ensureStudyWorkflow } from './study-workflow-start.ts';

/**
 * A row younger than this is left alone: its request may still be starting the workflow. Older,
 * a missing workflow means the start after the commit failed.
 */
export const RECONCILE_AFTER_MS = 2 * 60_000;

export interface ReconcileDependencies {
  readonly db: Db;
  /** The clock that decides a row's age; default the system's. */
  readonly now?: () => Date;
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
export function createReconcileActivities({ db, now = () => new Date() }: ReconcileDependencies) {
  const cutoff = () => new Date(now().getTime() - RECONCILE_AFTER_MS);

  return {
    async reconcileStudyWorkflows(input: { limit: number }): Promise<ReconcileBatch> {
      const studies = await asSystem(db, (tx) => studiesWithUnseenWorkflow(tx, cutoff(), input.limit));
      const { client, info, log } = Context.current();
      let started = 0;
      for (const study of studies) {
        if (await missing(client, studyWorkflowId(study.id))) {
          await ensureStudyWorkflow(client, info.taskQueue, study);
          log.warn('Started the workflow of a study that had none', {
            jobId: study.id,
            status: study.status,
          });
          started += 1;
        }
        await asSystem(db, (tx) => markStudyWorkflowSeen(tx, study.id, now()));
        Context.current().heartbeat();
      }
      return { checked: studies.length, started };
    },

    async reconcileSessionWorkflows(input: { limit: number }): Promise<ReconcileBatch> {
      const sessions = await asSystem(db, (tx) => sessionsWithUnseenWorkflow(tx, cutoff(), input.limit));
      const { client, info, log } = Context.current();
      let started = 0;
      for (const session of sessions) {
        if (await missing(client, sessionWorkflowId(session.id))) {
          await ensureSessionWorkflow(client, info.taskQueue, session);
          log.warn('Started the workflow of a session that had none', {
            sessionId: session.id,
            status: session.status,
          });
          started += 1;
        }
        await asSystem(db, (tx) => markSessionWorkflowSeen(tx, session.id, now()));
        Context.current().heartbeat();
      }
      return { checked: sessions.length, started };
    },
  };
}

/** Whether no workflow, running or ended, exists under the id. */
async function missing(client: Client, workflowId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).describe();
    return false;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return true;
    throw error;
  }
}

export type ReconcileActivities = ReturnType<typeof createReconcileActivities>;
