import { asUser } from '../../db/doors.ts';
import { insertAgentJob } from '../../db/repositories/agent-jobs.ts';
import { SIGNAL_KINDS } from '../../lib/domain.ts';
import { agent1Workflow } from '../../workflows/agents.ts';
import { agent1WorkflowId } from '../../workflows/messages/agents.ts';
import type { Principal } from '../principal.ts';
import { conflict, invalid } from '../../lib/errors.ts';
import { requireVisibleSession } from '../sessions/session-workflow.ts';
import type { AnalysisRequest } from './ai.schema.ts';
import { agentEstimateSeconds } from '../../clients/ai/configured.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/** A client clock this far ahead of ours is still "now"; further is a mistake. */
const CLOCK_SKEW_MS = 60_000;

/**
 * Agent 1 on a live session: stores the job as queued (row-level security decides who may: the
 * session's organization, its tester, an admin) and starts its workflow.
 */
export async function requestAnalysis(deps: CommandContext, principal: Principal, body: AnalysisRequest) {
  const now = deps.now();
  const requested = body.snapshotAt ? new Date(body.snapshotAt) : now;
  if (requested.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw invalid('snapshotAt: Must not be in the future');
  }
  const snapshotAt = requested.getTime() > now.getTime() ? now : requested;
  const row = await asUser(deps.db, principal.claims, async (tx) => {
    const session = await requireVisibleSession(tx, body.sessionId);
    if (session.status !== 'active') {
      throw conflict(`Session must be active for live analysis (it is ${session.status})`);
    }
    return insertAgentJob(tx, {
      kind: 'agent1',
      organization_id: session.organization_id,
      study_id: session.study_id,
      session_id: session.id,
      status: 'queued',
      requested_by: principal.claims.sub,
      options: {
        includeSignals: body.includeSignals ?? [...SIGNAL_KINDS],
        snapshotAt: snapshotAt.toISOString(),
      },
      estimated_completion_seconds: agentEstimateSeconds(deps.config.ai),
      queued_at: now,
    });
  });
  await deps.temporal.workflow.start(agent1Workflow, {
    taskQueue: serviceTaskQueue(deps),
    workflowId: agent1WorkflowId(row.id),
    args: [{ jobId: row.id }],
  });
  return row;
}
