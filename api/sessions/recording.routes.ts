import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import {
  eraseSessionRecording,
  recordingChunk,
  recordingChunksOf,
} from '../../commands/recordings/recording-access.ts';
import type { CommandContext } from '../../commands/context.ts';
import type { ChunkSummary } from '../../db/repositories/recordings.ts';
import { MAX_CHUNK_INFLATED_BYTES } from '../../lib/recording/chunk.ts';
import { int4 } from '../../lib/validation/storable.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { sessionIdParams } from './sessions.schema.ts';

/** A chunk's number as its path writes it: decimal digits only. */
const chunkParams = sessionIdParams.extend({
  chunk: z.preprocess(
    (raw) => (typeof raw === 'string' && /^[0-9]+$/.test(raw) ? Number(raw) : raw),
    int4(0),
  ),
});

const timestamp = z.string().describe('ISO 8601');

const chunkSummary = z.object({
  chunk: z.number().int().describe("the chunk's number, from 0"),
  startedAt: timestamp.describe("its first event's moment"),
  endedAt: timestamp.describe("its last event's moment"),
  eventCount: z.number().int(),
  hasFullSnapshot: z
    .boolean()
    .describe('whether it holds a full snapshot of the page: a replay of a moment starts at one'),
  bytes: z.number().int().describe('compressed size'),
});

const recordingResponse = z.object({
  sessionId: z.string(),
  retentionDays: z.number().int().describe('days the recording is kept after its last chunk came in'),
  chunks: z.array(chunkSummary),
});

const chunkResponse = chunkSummary.extend({
  sessionId: z.string(),
  events: z.array(z.unknown()).describe('the rrweb events, in order, every field value masked'),
});

const erasedResponse = z.object({ sessionId: z.string(), erasedChunks: z.number().int() });

const toSummary = (chunk: ChunkSummary) => ({
  chunk: chunk.seq,
  startedAt: chunk.started_at.toISOString(),
  endedAt: chunk.ended_at.toISOString(),
  eventCount: chunk.event_count,
  hasFullSnapshot: chunk.has_full_snapshot,
  bytes: chunk.byte_length,
});

/**
 * A session's DOM recording (`recordScreen`), sent by the extension as chunks through the test
 * token's snapshots route: listed and read by those who may read the session's report, erased at
 * its tester's request.
 */
export function recordingRoutes(deps: CommandContext): RouteDefinition[] {
  const common = { tag: 'Sessions', auth: 'user', resource: 'Session' } as const;
  const watchers =
    'its tester and admins at any time; the owning organization once the tester has confirmed the findings (403 before)';
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/api/sessions/:id/recording',
      summary: `List the chunks of the session's screen recording (a DOM replay), oldest first: ${watchers}`,
      params: sessionIdParams,
      response: recordingResponse,
      handler: async ({ params, principal }) => ({
        data: {
          sessionId: params.id,
          retentionDays: deps.config.recordings.retentionDays,
          chunks: (await recordingChunksOf(deps, principal, params.id)).map(toSummary),
        },
      }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/api/sessions/:id/recording/:chunk',
      // A path that names no chunk (`/recording/x`) finds none.
      resource: 'Recording chunk',
      summary: `Read one chunk of the session's screen recording, its rrweb events as JSON: ${watchers}`,
      params: chunkParams,
      response: chunkResponse,
      handler: async ({ params, principal }) => {
        const chunk = await recordingChunk(deps, principal, params.id, params.chunk);
        const events: unknown = JSON.parse(
          gunzipSync(chunk.data, { maxOutputLength: MAX_CHUNK_INFLATED_BYTES }).toString('utf8'),
        );
        return { data: { sessionId: params.id, ...toSummary(chunk), events } };
      },
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/api/sessions/:id/recording',
      summary:
        "Erase the session's screen recording, at the request of its tester (or by an admin); the rest of the session stays",
      params: sessionIdParams,
      response: erasedResponse,
      handler: async ({ params, principal }) => ({
        data: { sessionId: params.id, erasedChunks: await eraseSessionRecording(deps, principal, params.id) },
      }),
    }),
  ];
}
