import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { findReport, latestAgentJob } from '../../db/repositories/reports.ts';
import { conflict, notFound } from '../http/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { visibleSession } from '../sessions/session-workflow.ts';
import { renderReport } from './report-rendering.ts';
import {
  createReportBody,
  reportIdParams,
  reportJobResponse,
  reportQuery,
  reportResponse,
} from './reports.schema.ts';

/**
 * Agent 3 runs inside the session workflow as soon as the tester confirms; this endpoint answers
 * its job. Before confirmation it refuses: the human-in-the-loop gate is not bypassable here.
 * A format asked for here is a rendering of the stored facts (report-rendering.ts), read at
 * `reportUrl`.
 */
export function reportRoutes({ db }: { readonly db: Db }): RouteDefinition[] {
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
        const session = await visibleSession(db, principal, body.sessionId);
        if (!session.notes_confirmed) {
          throw conflict(
            `Session findings must be confirmed by the tester before a report (the session is ${session.status})`,
          );
        }
        // The confirmation queues the job in the same transaction, so a confirmed session has one.
        const job = await asUser(db, principal.claims, (tx) => latestAgentJob(tx, session.id, 'agent3'));
        if (!job) throw conflict('The report for this session is still being generated');
        const reportId =
          job.status === 'complete' ? ((job.result?.reportId as string | undefined) ?? null) : null;
        const query = `format=${body.reportFormat}&includeScreenshots=${body.includeScreenshots}`;
        return {
          data: {
            reportJobId: job.id,
            sessionId: session.id,
            status: job.status,
            estimatedCompletionSeconds: job.status === 'queued' ? (job.estimated_completion_seconds ?? 0) : 0,
            reportId,
            reportFormat: body.reportFormat,
            includeScreenshots: body.includeScreenshots,
            reportUrl: reportId ? `/api/reports/${reportId}?${query}` : null,
            usedFallback: job.used_fallback,
          },
        };
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
        const row = await asUser(db, principal.claims, (tx) => findReport(tx, params.id));
        if (!row) throw notFound('Report');
        return { data: renderReport(row, query) };
      },
    }),
  ];
}
