import { asUser } from '../../db/doors.ts';
import { findAgentJob } from '../../db/repositories/agent-jobs.ts';
import { findSession } from '../../db/repositories/sessions.ts';
import { notFound } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { insightsVisible } from '../../commands/sessions/insights-visibility.ts';
import { requestAnalysis } from '../../commands/ai/ai-commands.ts';
import { analysisJobIdParams, analysisJobResponse, analysisJobStatusResponse } from './ai.schema.ts';
import { analysisRequestBody } from '../../commands/ai/ai.schema.ts';
import { toAnalysisJob } from './ai-view.ts';
import type { CommandContext } from '../../commands/context.ts';

/** Agent 1, the real-time analyst (spec, AI agents): request on a live session, then poll. */
export function aiRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/ai',
      tag: 'AI agents',
      summary: "Agent 1 on an active session's signals up to snapshotAt; poll GET /api/ai/:analysisJobId",
      auth: 'user',
      body: analysisRequestBody,
      response: analysisJobResponse,
      status: 202,
      errors: [404, 409],
      handler: async ({ body, principal }) => {
        const { analysisJobId, sessionId, status, estimatedCompletionSeconds } = toAnalysisJob(
          await requestAnalysis(deps, principal, body),
        );
        return { data: { analysisJobId, sessionId, status, estimatedCompletionSeconds } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/ai/:analysisJobId',
      tag: 'AI agents',
      summary:
        'An Agent 1 job: its status and, once complete, its insights with the provider that answered; readable while the session is active or paused, then by its tester until confirmation',
      auth: 'user',
      params: analysisJobIdParams,
      resource: 'Analysis job',
      response: analysisJobStatusResponse,
      handler: async ({ params, principal }) => {
        const row = await asUser(deps.db, principal.claims, async (tx) => {
          const job = await findAgentJob(tx, params.analysisJobId);
          if (job?.kind !== 'agent1') return undefined;
          const session = await findSession(tx, job.session_id!);
          return session && insightsVisible(principal, session) ? job : undefined;
        });
        if (!row) throw notFound('Analysis job');
        return { data: toAnalysisJob(row) };
      },
    }),
  ];
}
