import { asUser } from '../../db/doors.ts';
import { hasVariants, reportGate } from '../../db/repositories/agent-inputs.ts';
import { insertAgentJob, latestStudyAgentJob, type AgentJobRow } from '../../db/repositories/agent-jobs.ts';
import { studyReportOfJob } from '../../db/repositories/reports.ts';
import { findStudy } from '../../db/repositories/studies.ts';
import { agent4Workflow } from '../../workflows/agents.ts';
import { agent4WorkflowId } from '../../workflows/messages/agents.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { AggregateRequest } from './aggregate.schema.ts';
import { agentEstimateSeconds } from '../../clients/ai/configured.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/**
 * Agent 4 for a study: once it has at least `minSessionCount` tester reports and every confirmed
 * session has its report, the job is stored as queued and its workflow started; the workflow reads
 * across testers through the system door.
 */
export async function requestAggregate(
  deps: CommandContext,
  principal: Principal,
  studyId: string,
  body: AggregateRequest,
) {
  const row = await asUser(deps.db, principal.claims, async (tx) => {
    const study = (await findStudy(tx, studyId))?.study;
    if (!study) throw notFound('Study');
    const { reports, waiting } = await reportGate(tx, study.id);
    if (reports < body.minSessionCount) {
      throw conflict(
        `The study needs at least ${body.minSessionCount} tester report${body.minSessionCount === 1 ? '' : 's'} (it has ${reports})`,
      );
    }
    if (waiting > 0) {
      throw conflict(
        `Every confirmed session needs its tester report first (${waiting} still being generated)`,
      );
    }
    return insertAgentJob(tx, {
      kind: 'agent4',
      organization_id: study.organization_id,
      study_id: study.id,
      session_id: null,
      status: 'queued',
      requested_by: principal.claims.sub,
      options: {
        includeVariantComparison: body.includeVariantComparison ?? (await hasVariants(tx, study.id)),
        minSessionCount: body.minSessionCount,
        sessionCount: reports,
      },
      estimated_completion_seconds: agentEstimateSeconds(deps.config.ai),
      queued_at: deps.now(),
    });
  });
  await deps.temporal.workflow.start(agent4Workflow, {
    taskQueue: serviceTaskQueue(deps),
    workflowId: agent4WorkflowId(row.id),
    args: [{ jobId: row.id }],
  });
  return jobView(row);
}

/** The study's latest aggregate job, with its study-level report once complete. */
export async function readAggregate(deps: Pick<CommandContext, 'db'>, principal: Principal, studyId: string) {
  return asUser(deps.db, principal.claims, async (tx) => {
    const study = (await findStudy(tx, studyId))?.study;
    if (!study) throw notFound('Study');
    const job = await latestStudyAgentJob(tx, study.id, 'agent4');
    if (!job) throw notFound('Aggregate report');
    const report = await studyReportOfJob(tx, job.id);
    return {
      ...jobView(job),
      aggregateReportId: report?.id ?? null,
      // The stored report's record once there is one (spec: stored on the related record).
      provider: report ? report.provider : job.provider,
      usedFallback: report ? report.used_fallback : job.used_fallback,
      error: job.error,
      report: report
        ? {
            tasks: [], // a report written before sessions had tasks
            ...report.content,
            jobId: study.id,
            sessionCount: report.session_count,
            generatedAt: report.generated_at.toISOString(),
            studyScore: Number(report.study_score),
          }
        : null,
    };
  });
}

function jobView(row: AgentJobRow) {
  return {
    aggregateJobId: row.id,
    jobId: row.study_id,
    sessionCount: Number(row.options.sessionCount ?? 0),
    status: row.status,
    estimatedCompletionSeconds: row.status === 'queued' ? (row.estimated_completion_seconds ?? 0) : 0,
  };
}
