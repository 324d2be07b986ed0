// Event ingestion under load: 1,000-item batches through POST /api/data/events (JSON parse, per-item
// validation, the RLS door, one bulk INSERT) side by side, in the same run, with a raw multi-row
// INSERT of the same rows into the same table (no HTTP, no validation, no RLS): the ceiling.
import assert from 'node:assert/strict';
import { toEventRow } from '../../api/ingestion/item-rows.ts';
import { eventItem } from '../../api/ingestion/items.schema.ts';
import { startTestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { recordingSession } from '../ingestion/fixtures.ts';
import { median, percentile, round, timedPool } from './stats.ts';

const ROUNDS = 3;
const BATCH_ITEMS = 1000;
// One tester per lane: testers are on the free tier (120 requests a minute), so each sends 15.
const SESSIONS = 8;
const BATCHES_PER_SESSION = 15;
const CONCURRENCY = SESSIONS;

const SELECTORS = ['#checkout > button.pay', 'nav a[href="/cart"]', 'input#email', 'main h1', 'form .error'];
const TYPES = ['click', 'scroll', 'input', 'focus', 'blur', 'navigation', 'error'] as const;

/** A batch the extension could send: varied types, coordinates and times, no two events alike. */
function eventBatch(seed: number): Record<string, unknown>[] {
  const start = Date.UTC(2026, 0, 15, 10) + seed * BATCH_ITEMS * 50;
  return Array.from({ length: BATCH_ITEMS }, (_, i) => ({
    eventType: TYPES[i % TYPES.length],
    targetSelector: SELECTORS[i % SELECTORS.length],
    timestamp: new Date(start + i * 50).toISOString(),
    x: (i * 37) % 1280,
    y: (i * 53) % 800,
    ...(i % 7 === 1 ? { scrollY: i * 3 } : {}),
    ...(i % 7 === 2 ? { inputLength: i % 40 } : {}),
    viewport: { width: 1280, height: 800 },
  }));
}

export async function run() {
  const api = await startTestApi({ worker: false });
  const db = testDatabase();
  const rounds: Array<Record<string, number>> = [];
  try {
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
      const lanes = await Promise.all(Array.from({ length: SESSIONS }, () => recordingSession()));
      const rawLanes = await Promise.all(Array.from({ length: SESSIONS }, () => recordingSession()));
      const total = SESSIONS * BATCHES_PER_SESSION;
      const batches = Array.from({ length: total }, (_, i) => eventBatch(roundIndex * total + i));
      // Bodies are serialised before the clock starts: the load generator shares this process.
      const bodies = batches.map((batch, i) =>
        JSON.stringify({ sessionId: lanes[i % SESSIONS]!.sessionId, batch }),
      );
      const rawRows = batches.map((batch, i) =>
        batch.map((item) => {
          const row = toEventRow(eventItem.parse(item));
          return {
            session_id: rawLanes[i % SESSIONS]!.sessionId,
            event_type: row.eventType as (typeof TYPES)[number],
            target_selector: row.targetSelector,
            occurred_at: row.occurredAt,
            x: row.x,
            y: row.y,
            scroll_y: row.scrollY,
            input_length: row.inputLength,
            viewport_width: row.viewportWidth,
            viewport_height: row.viewportHeight,
          };
        }),
      );

      const ingest = await timedPool(total, CONCURRENCY, async (i) => {
        const response = await fetch(`${api.url}/api/data/events`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${lanes[i % SESSIONS]!.jwt}`,
          },
          body: bodies[i],
        });
        const text = await response.text();
        assert.equal(response.status, 200, text);
        assert.ok(text.includes(`"accepted":${BATCH_ITEMS}`), text.slice(0, 200));
      });
      const raw = await timedPool(total, CONCURRENCY, async (i) => {
        await db.insertInto('session_events').values(rawRows[i]!).execute();
      });
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
    await api.stop();
  }
  const figures: Record<string, number> = {};
  for (const key of Object.keys(rounds[0]!)) figures[key] = round(median(rounds.map((r) => r[key]!)), 2);
  return { figures, runs: ROUNDS };
}
