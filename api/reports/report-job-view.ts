import type { AgentJobRow } from '../../db/repositories/agent-jobs.ts';

/**
 * An Agent 3 job as its pollers see it (POST /api/reports, GET /api/reports/jobs/:reportJobId):
 * the report's id once complete, who wrote it, and the last error while it is retried or failed.
 */
export function toReportJob(row: AgentJobRow) {
  return {
    reportJobId: row.id,
    sessionId: row.session_id!,
    status: row.status,
    estimatedCompletionSeconds: row.status === 'queued' ? (row.estimated_completion_seconds ?? 0) : 0,
    reportId: row.status === 'complete' ? ((row.result?.reportId as string | undefined) ?? null) : null,
    provider: row.provider,
    usedFallback: row.used_fallback,
    error: row.error,
  };
}
