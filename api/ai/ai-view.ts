import type { AgentJobRow } from '../../db/repositories/agent-jobs.ts';
import type { z } from 'zod';
import { SIGNAL_KINDS, type SignalKind } from '../../lib/domain.ts';
import type { insightsSchema } from './ai.schema.ts';

type Insights = z.output<typeof insightsSchema>;

/** An Agent 1 job as its pollers see it: the insights once complete, and who produced them. */
export function toAnalysisJob(row: AgentJobRow) {
  return {
    analysisJobId: row.id,
    sessionId: row.session_id!,
    status: row.status,
    estimatedCompletionSeconds: row.status === 'queued' ? (row.estimated_completion_seconds ?? 0) : 0,
    includeSignals: (row.options.includeSignals as SignalKind[] | undefined) ?? [...SIGNAL_KINDS],
    snapshotAt:
      typeof row.options.snapshotAt === 'string' ? row.options.snapshotAt : row.queued_at.toISOString(),
    insights: insightsOf(row),
    provider: row.provider,
    usedFallback: row.used_fallback,
    error: row.error,
    queuedAt: row.queued_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

/**
 * The insights a completed Agent 1 job attached to its session, for GET /api/sessions/:id
 * (with `latestCompleteAgentJob(tx, sessionId, 'agent1')`); null before any completes.
 */
export function insightsOf(row: AgentJobRow | undefined): Insights | null {
  if (row?.status !== 'complete') return null;
  return (row.result?.insights as Insights | undefined) ?? null;
}

/** The insights as GET /api/sessions/:id attaches them: with who produced them (spec: `usedFallback`). */
export function sessionInsightsOf(row: AgentJobRow | undefined) {
  const insights = insightsOf(row);
  return insights && row ? { ...insights, provider: row.provider!, usedFallback: row.used_fallback } : null;
}
