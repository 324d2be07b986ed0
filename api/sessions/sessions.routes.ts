import type { Logger } from 'pino';
import { asUser } from '../../db/doors.ts';
import { latestCompleteAgentJob } from '../../db/repositories/agent-jobs.ts';
import { listNotes } from '../../db/repositories/session-notes.ts';
import { tasksWithAttempts } from '../../db/repositories/task-attempts.ts';
import { recordTaskProgress } from '../../commands/sessions/task-progress.ts';
import { sessionInsightsOf } from '../ai/ai-view.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { createSession } from '../../commands/sessions/create-session.ts';
import { insightsVisible } from '../../commands/sessions/insights-visibility.ts';
import { rateSession } from '../../commands/sessions/business-rating.ts';
import { submitFeedback, updateNotes } from '../../commands/sessions/note-commands.ts';
import {
  analyzeSession,
  changeSessionStatus,
  confirmSession,
} from '../../commands/sessions/session-commands.ts';
import { passesGate, toCreatedSession, toNote, toSession } from './session-view.ts';
import { requireVisibleSession } from '../../commands/sessions/session-workflow.ts';
import {
  analyzeSessionResponse,
  completeSessionResponse,
  confirmSessionResponse,
  createdSessionResponse,
  businessRatingResponse,
  feedbackResponse,
  notesResponse,
  sessionIdParams,
  sessionReadResponse,
  sessionResponse,
  updateNotesResponse,
} from './sessions.schema.ts';
import {
  completeSessionBody,
  confirmSessionBody,
  createSessionBody,
  businessRatingBody,
  feedbackBody,
  updateNotesBody,
  updateSessionBody,
} from '../../commands/sessions/session.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

const ACTION_FOR = { paused: 'pause', active: 'resume', completed: 'complete' } as const;
/** Agent 2 on the local analyst takes a few seconds at most; clients poll GET until analyzed. */
const ANALYSIS_ESTIMATE_SECONDS = 5;

export function sessionRoutes(deps: CommandContext): RouteDefinition[] {
  const common = { tag: 'Sessions', auth: 'user', params: sessionIdParams, resource: 'Session' } as const;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/sessions',
      tag: 'Sessions',
      summary: 'Create a session for an eligible tester on an active study and start its workflow',
      auth: 'user',
      roles: ['business', 'admin'],
      body: createSessionBody,
      response: createdSessionResponse,
      status: 201,
      errors: [404, 409],
      handler: async ({ body, principal }) => ({
        data: toCreatedSession((await createSession(deps, principal, body)).session),
      }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/api/sessions/:id',
      summary:
        'Read a session, with the insights of its latest completed live analysis (Agent 1): for everyone who sees the session while it is active or paused, then for its tester until confirmation',
      response: sessionReadResponse,
      handler: async ({ params, principal }) => {
        const { session, tasks, agent1 } = await asUser(deps.db, principal.claims, async (tx) => {
          const session = await requireVisibleSession(tx, params.id);
          const agent1 = insightsVisible(principal, session)
            ? await latestCompleteAgentJob(tx, session.id, 'agent1')
            : undefined;
          return { session, tasks: await tasksWithAttempts(tx, session.id), agent1 };
        });
        return { data: { ...toSession(session, tasks), insights: sessionInsightsOf(agent1) } };
      },
    }),
    defineRoute({
      ...common,
      method: 'PATCH',
      path: '/api/sessions/:id',
      summary:
        "Pause, resume or complete a session, or record the tester's progress on one of its tasks (also with the test token); answers the session as the change left it, with its tasks",
      body: updateSessionBody,
      response: sessionResponse,
      errors: [409],
      handler: async ({ params, body, principal }) => {
        const state = body.task
          ? await recordTaskProgress(deps, principal, params.id, body.task)
          : await changeSessionStatus(deps, principal, params.id, ACTION_FOR[body.status!]);
        // A completed session moves on to Agent 2 at once; the answer reports this change.
        const { session, tasks } = await asUser(deps.db, principal.claims, async (tx) => {
          const session = await requireVisibleSession(tx, params.id);
          return { session, tasks: await tasksWithAttempts(tx, session.id) };
        });
        return { data: { ...toSession(session, tasks), status: state.status } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/api/sessions/:id/complete',
      summary: 'Complete an active or paused session; Agent 2 starts right after',
      body: completeSessionBody,
      response: completeSessionResponse,
      errors: [409],
      handler: async ({ params, body, principal }) => {
        const state = await changeSessionStatus(deps, principal, params.id, 'complete', body.completedAt);
        return { data: { sessionId: params.id, status: 'completed', completedAt: state.completedAt } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/api/sessions/:id/analyze',
      summary:
        'Run Agent 2 on a completed session (answers the running or finished analysis when there is one)',
      response: analyzeSessionResponse,
      status: 202,
      errors: [409],
      handler: async ({ params, principal }) => {
        const state = await analyzeSession(deps, principal, params.id);
        return {
          data: {
            sessionId: params.id,
            status: state.status,
            estimatedCompletionSeconds: state.status === 'analyzing' ? ANALYSIS_ESTIMATE_SECONDS : 0,
          },
        };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/api/sessions/:id/notes',
      summary:
        "A session's notes; findings the tester has not confirmed are the tester's alone, and rejected ones nobody's",
      response: notesResponse,
      handler: async ({ params, principal }) => {
        const { session, notes } = await asUser(deps.db, principal.claims, async (tx) => ({
          session: await requireVisibleSession(tx, params.id),
          notes: await listNotes(tx, params.id),
        }));
        const shown = notes.filter((note) => passesGate(note, session, principal.claims.sub));
        return { data: { sessionId: params.id, notes: shown.map(toNote) } };
      },
    }),
    defineRoute({
      ...common,
      method: 'PATCH',
      path: '/api/sessions/:id/notes',
      summary: 'Add notes, or edit your own, until the session is confirmed',
      body: updateNotesBody,
      response: updateNotesResponse,
      errors: [409],
      handler: async ({ params, body, principal }) => ({
        data: await updateNotes(deps, principal, params.id, body),
      }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/api/sessions/:id/confirm',
      summary: 'The tester confirms or rejects the findings and rates the session; the payout is queued',
      body: confirmSessionBody,
      response: confirmSessionResponse,
      errors: [409],
      handler: async ({ params, body, principal }) => {
        const result = await confirmSession(deps, principal, params.id, body);
        return { data: { sessionId: params.id, ...result } };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/api/sessions/:id/rating',
      summary: "The organization's rating of its confirmed session, 1-5 with an optional comment, once",
      roles: ['business'],
      body: businessRatingBody,
      response: businessRatingResponse,
      status: 201,
      errors: [409],
      handler: async ({ params, body, principal, ctx }) => ({
        data: await rateSession(deps, principal, params.id, body, ctx.state.log as Logger),
      }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/api/sessions/:id/feedback',
      summary: "The tester's feedback on a completed session, once",
      body: feedbackBody,
      response: feedbackResponse,
      status: 201,
      errors: [409],
      handler: async ({ params, body, principal }) => ({
        data: await submitFeedback(deps, principal, params.id, body),
      }),
    }),
  ];
}
