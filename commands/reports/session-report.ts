import { asUser } from '../../db/doors.ts';
import { latestAgentJob, type AgentJobRow } from '../../db/repositories/agent-jobs.ts';
import { conflict } from '../../lib/errors.ts';
import type { CommandContext } from '../context.ts';
import type { Principal } from '../principal.ts';
import { requireVisibleSession } from '../sessions/session-workflow.ts';

/**
 * The Agent 3 job of a session whose findings its tester confirmed. Agent 3 runs inside the session
 * workflow once the tester confirms, so this only finds its job; before confirmation it refuses:
 * the human-in-the-loop gate is not bypassable here.
 */
export async function sessionReportJob(
  ctx: Pick<CommandContext, 'db'>,
  principal: Principal,
  sessionId: string,
): Promise<AgentJobRow> {
  const job = await asUser(ctx.db, principal.claims, async (tx) => {
    const session = await requireVisibleSession(tx, sessionId);
    if (!session.notes_confirmed) {
      throw conflict(
        `Session findings must be confirmed by the tester before a report (the session is ${session.status})`,
      );
    }
    // The confirmation queues the job in the same transaction, so a confirmed session has one.
    return latestAgentJob(tx, session.id, 'agent3');
  });
  if (!job) throw conflict('The report for this session is still being generated');
  return job;
}
