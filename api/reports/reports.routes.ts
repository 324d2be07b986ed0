import { asUser } from '../../db/doors.ts';
import { findAgentJob } from '../../db/repositories/agent-jobs.ts';
import { findReport } from '../../db/repositories/reports.ts';
import { listFindingScreenshots } from '../../db/repositories/finding-screenshots.ts';
import { requestFindingScreenshots } from '../../commands/reports/finding-screenshots.ts';
import type { CommandContext } from '../../commands/context.ts';
import { notFound } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { sessionReportJob } from '../../commands/reports/session-report.ts';
import { toReportJob } from './report-job-view.ts';
import { renderReport } from './report-rendering.ts';
import {
  reportIdParams,
  reportJobIdParams,
  reportJobResponse,
  reportJobStatusResponse,
  reportQuery,
  reportResponse,
} from './reports.schema.ts';
import { createReportBody } from '../../commands/reports/report.schema.ts';

/**
 * Agent 3's job of a confirmed session (`sessionReportJob`), its status and its report. A format
 * asked for here is a rendering of the stored facts (report-rendering.ts), read at
 * `reportUrl`.
 */
export function reportRoutes(deps: Pick<CommandContext, 'db' | 'temporal' | 'config'>): RouteDefinition[] {
  const { db } = deps;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/reports',
      tag: 'Reports',
      summary: "The tester's report for a session whose findings the tester confirmed (Agent 3)",
      auth: 'user',
      body: createReportBody,
      response: reportJobResponse,
      status: 202,
      errors: [404, 409],
      handler: async ({ body, principal }) => {
        const job = await sessionReportJob({ db }, principal, body.sessionId);
        if (body.includeScreenshots) await requestFindingScreenshots(deps, body.sessionId);
        const { reportJobId, sessionId, status, estimatedCompletionSeconds, reportId, usedFallback } =
          toReportJob(job);
        const query = `format=${body.reportFormat}&includeScreenshots=${body.includeScreenshots}`;
        return {
          data: {
            reportJobId,
            sessionId,
            status,
            estimatedCompletionSeconds,
            reportId,
            reportFormat: body.reportFormat,
            includeScreenshots: body.includeScreenshots,
            reportUrl: reportId ? `/api/reports/${reportId}?${query}` : null,
            usedFallback,
          },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/reports/jobs/:reportJobId',
      tag: 'Reports',
      summary:
        'Poll an Agent 3 report job (its tester and the owning organization): status, reportId once complete, provider',
      auth: 'user',
      params: reportJobIdParams,
      resource: 'Report job',
      response: reportJobStatusResponse,
      handler: async ({ params, principal }) => {
        // Row-level security decides who reads the job (agent_jobs_select); anyone else finds nothing.
        const job = await asUser(db, principal.claims, (tx) => findAgentJob(tx, params.reportJobId));
        if (job?.kind !== 'agent3') throw notFound('Report job');
        return { data: toReportJob(job) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/reports/:id',
      tag: 'Reports',
      summary: 'Read a tester report (its tester and the owning organization), structured or narrative',
      auth: 'user',
      params: reportIdParams,
      query: reportQuery,
      resource: 'Report',
      response: reportResponse,
      handler: async ({ params, query, principal }) => {
        const { row, screenshots } = await asUser(db, principal.claims, async (tx) => {
          const found = await findReport(tx, params.id);
          if (!found) throw notFound('Report');
          // The pictures as the caller may see them (finding_screenshots_select), only when asked for.
          return {
            row: found,
            screenshots: query.includeScreenshots
              ? await listFindingScreenshots(tx, found.session_id)
              : undefined,
          };
        });
        return { data: renderReport(row, query, screenshots) };
      },
    }),
  ];
}
