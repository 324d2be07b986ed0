// Event ingestion under load: 1,000-item batches through POST /api/data/events (JSON parse, per-item
// validation, the RLS door, one bulk INSERT) side by side, in the same run, with a raw COPY of the
// same rows into the same table (no HTTP, no validation, no RLS): the ceiling. The HTTP load comes
// from a separate process (support/ingest-load.ts); the two sides swap order every round, so
// neither always runs on a warmer cache. Targets (issue 5): 20,000 items/s and half the raw rate.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { toEventRow } from '../../commands/ingestion/item-rows.ts';
import { eventItem } from '../../commands/ingestion/items.schema.ts';
import { startTestApi } from '../support/api.ts';
import { recordingSession } from '../ingestion/fixtures.ts';
import { median, percentile, round, timedPool } from './support/stats.ts';
import { BATCH_ITEMS, eventBatch } from './support/event-batches.ts';

const ROUNDS = 5;
// One tester per lane: testers are on the free tier (120 requests a minute), so each sends 15.
const SESSIONS = 8;
const BATCHES_PER_SESSION = 15;
const CONCURRENCY = SESSIONS;
export const TARGETS = { itemsPerSecond: 20_000, ratioToRaw: 0.5 } as const;

const LOAD_SCRIPT = fileURLToPath(new URL('./support/ingest-load.ts', import.meta.url));
const COPY_COLUMNS = [
  'session_id',
  'event_type',
  'target_selector',
  'occurred_at',
  'x',
  'y',
  'scroll_y',
  'input_length',
  'viewport_width',
  'viewport_height',
];

/** COPY's text format: tab-separated, `\N` for null, backslash, tab and newlines escaped. */
const copyValue = (value: string | number | null) =>
  value === null
    ? '\\N'
    : String(value).replace(
        /[\\\t\n\r]/g,
        (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
      );

function copyText(sessionId: string, seed: number): string {
  return eventBatch(seed)
    .map((item) => {
      const row = toEventRow(eventItem.parse(item));
      return [
        sessionId,
        row.eventType,
        row.targetSelector,
        row.occurredAt,
        row.x,
        row.y,
        row.scrollY,
        row.inputLength,
        row.viewportWidth,
        row.viewportHeight,
      ]
        .map(copyValue)
        .join('\t');
    })
    .join('\n')
    .concat('\n');
}

/** The HTTP side, driven from a child process; answers each batch's duration and the total. */
export async function sendThroughApi(plan: object): Promise<{ durations: number[]; totalMs: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', LOAD_SCRIPT], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const output = text(child.stdout);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin.end(JSON.stringify(plan));
  const [answer, code] = await Promise.all([output, exited]);
  assert.equal(code, 0, 'the load process failed');
  return JSON.parse(answer) as { durations: number[]; totalMs: number };
}

export async function run() {
  const api = await startTestApi({ worker: false });
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: CONCURRENCY });
  const rounds: Array<Record<string, number>> = [];
  try {
    // Open every raw connection before the first timing.
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => (await pool.connect()).release()));
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
      const total = SESSIONS * BATCHES_PER_SESSION;
      const seeds = Array.from({ length: total }, (_, i) => roundIndex * total + i);
      const lanes = await Promise.all(Array.from({ length: SESSIONS }, () => recordingSession()));
      const rawLanes = await Promise.all(Array.from({ length: SESSIONS }, () => recordingSession()));
      const copies = seeds.map((seed, i) => copyText(rawLanes[i % SESSIONS]!.sessionId, seed));
      const copyStatement = `COPY session_events (${COPY_COLUMNS.join(', ')}) FROM STDIN`;

      const apiSide = () =>
        sendThroughApi({
          url: api.url,
          lanes: lanes.map(({ sessionId, jwt }) => ({ sessionId, jwt })),
          seeds,
          concurrency: CONCURRENCY,
        });
      const rawSide = () =>
        timedPool(total, CONCURRENCY, async (i) => {
          const client = await pool.connect();
          try {
            await pipeline(Readable.from([copies[i]!]), client.query(copyFrom(copyStatement)));
          } finally {
            client.release();
          }
        });
      const apiFirst = roundIndex % 2 === 0;
      const first = await (apiFirst ? apiSide() : rawSide());
      const second = await (apiFirst ? rawSide() : apiSide());
      const [ingest, raw] = apiFirst ? [first, second] : [second, first];

      const items = total * BATCH_ITEMS;
      const itemsPerSecond = (items / ingest.totalMs) * 1000;
      const rawItemsPerSecond = (items / raw.totalMs) * 1000;
      rounds.push({
        itemsPerSecond,
        rawItemsPerSecond,
        ratioToRaw: itemsPerSecond / rawItemsPerSecond,
        p50BatchMs: percentile(ingest.durations, 50),
        p95BatchMs: percentile(ingest.durations, 95),
        rawP95BatchMs: percentile(raw.durations, 95),
      });
    }
  } finally {
    await pool.end();
    await api.stop();
  }
  const figures: Record<string, number> = {};
  for (const key of Object.keys(rounds[0]!)) figures[key] = round(median(rounds.map((r) => r[key]!)), 2);
  const meetsTargets =
    figures.itemsPerSecond! >= TARGETS.itemsPerSecond && figures.ratioToRaw! >= TARGETS.ratioToRaw;
  return { figures, runs: ROUNDS, targets: { ...TARGETS }, meetsTargets };
}
