import { invalid } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import type { RequestState } from '../http/state.ts';
import type { ApiMetrics } from '../http/metrics.ts';
import { sessionIdParams } from '../sessions/sessions.schema.ts';
import { batchResponse, snapshotsResponse } from './ingestion.schema.ts';
import { dataBatchBody, sessionBatchBody, type BatchKind } from '../../commands/ingestion/batch.schema.ts';
import {
  recordBatch,
  type BatchResult,
  type SnapshotsResult,
} from '../../commands/ingestion/record-batch.ts';
import { toTask } from '../sessions/session-view.ts';
import type { CommandContext } from '../../commands/context.ts';

const ITEM_NAMES: Readonly<Record<BatchKind, string>> = {
  events: 'browser interaction events',
  facial: 'facial analysis frames (pre-processed scores)',
  voice: 'voice segments (transcripts and metrics)',
  snapshots:
    'facial snapshots: images for the facial analysis engine (never stored), frames analysed on the ' +
    "tester's machine (the facial frame item), frames without a face (`faceDetected: false`), or " +
    'chunks of the DOM recording of a study that records the screen (`recording`)',
};

const describe = (kind: BatchKind) =>
  `Record a batch of ${ITEM_NAMES[kind]}: each item is checked alone, invalid ones are listed in ` +
  'rejections, the rest are stored; repeats of stored items count as accepted. ' +
  'At most 1,000 items (413); the session must be active or paused (409).';

/**
 * The signal endpoints (spec, "Data ingestion"): `POST /api/data/events|facial|voice` for a
 * signed-in caller naming the session in the body, and the extension's test-token twins
 * `POST /api/sessions/:id/events|snapshots|voice` naming it in the path. Who may record is
 * decided by row-level security: the session's tester (or an admin), never its business.
 */
export function ingestionRoutes(
  deps: CommandContext,
  metrics: Pick<ApiMetrics, 'ingestion'>,
): RouteDefinition[] {
  /** The batch's answer, counted first (ingestion_items_total). */
  const counted = <R extends BatchResult>(kind: string, result: R): R => {
    metrics.ingestion(kind, result.accepted, result.rejected);
    return result;
  };
  const data = (kind: 'events' | 'facial' | 'voice') =>
    defineRoute({
      method: 'POST',
      path: `/api/data/${kind}`,
      tag: 'Data ingestion',
      summary: describe(kind),
      auth: 'user',
      body: dataBatchBody(kind),
      response: batchResponse,
      errors: [404, 409],
      handler: async ({ body, principal, ctx }) => ({
        data: counted(
          kind,
          await recordBatch(deps, kind, { principal, ...body, log: (ctx.state as RequestState).log }),
        ),
      }),
    });
  const session = (kind: 'events' | 'snapshots' | 'voice') =>
    defineRoute({
      method: 'POST',
      path: `/api/sessions/:id/${kind}`,
      tag: 'Data ingestion',
      summary: `${describe(kind)} Takes the session's X-Test-Token.`,
      auth: 'user',
      params: sessionIdParams,
      resource: 'Session',
      body: sessionBatchBody(kind),
      response: kind === 'snapshots' ? snapshotsResponse : batchResponse,
      errors: [409],
      handler: async ({ body, params, principal, ctx }) => {
        if (body.sessionId !== undefined && body.sessionId !== params.id)
          throw invalid('sessionId: must match the session in the path');
        const result: BatchResult & Pick<SnapshotsResult, 'tasks'> = counted(
          kind === 'snapshots' ? 'facial' : kind,
          await recordBatch(deps, kind, {
            principal,
            sessionId: params.id,
            batch: body.batch,
            log: (ctx.state as RequestState).log,
          }),
        );
        return { data: result.tasks ? { ...result, tasks: result.tasks.map(toTask) } : result };
      },
    });
  return [
    data('events'),
    data('facial'),
    data('voice'),
    session('events'),
    session('snapshots'),
    session('voice'),
  ];
}
