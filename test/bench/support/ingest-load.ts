// The HTTP side of the ingestion benchmark, in a process of its own so that building and sending
// the load does not share the API's event loop or CPU time slice. Reads its plan as JSON on stdin,
// serialises every body before the clock starts, sends them with `concurrency` in flight and
// prints `{durations, totalMs}` as JSON on stdout.
import { text } from 'node:stream/consumers';
import { BATCH_ITEMS, eventBatch } from './event-batches.ts';

interface LoadPlan {
  readonly url: string;
  /** One lane per tester session: batch i goes to lane i % lanes.length. */
  readonly lanes: readonly { readonly sessionId: string; readonly jwt: string }[];
  readonly seeds: readonly number[];
  readonly concurrency: number;
}

const plan = JSON.parse(await text(process.stdin)) as LoadPlan;
const requests = plan.seeds.map((seed, i) => {
  const lane = plan.lanes[i % plan.lanes.length]!;
  return {
    body: JSON.stringify({ sessionId: lane.sessionId, batch: eventBatch(seed) }),
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${lane.jwt}` },
  };
});

const durations = new Array<number>(requests.length);
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: plan.concurrency }, async () => {
    while (next < requests.length) {
      const index = next++;
      const t0 = performance.now();
      const response = await fetch(`${plan.url}/api/data/events`, { method: 'POST', ...requests[index]! });
      const answer = await response.text();
      if (response.status !== 200 || !answer.includes(`"accepted":${BATCH_ITEMS}`)) {
        throw new Error(`batch ${index}: ${response.status} ${answer.slice(0, 200)}`);
      }
      durations[index] = performance.now() - t0;
    }
  }),
);
process.stdout.write(JSON.stringify({ durations, totalMs: performance.now() - started }));
