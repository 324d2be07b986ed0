// The thread that reads a moment's chunks (moment-reader.ts): inflating and parsing a minute of a
// busy page's recording takes a few hundred milliseconds, which the API's event loop must not spend
// while it serves others. It answers each request with the moment's events, or why there are none.
import { parentPort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { eventsForMoment } from './moment-events.ts';
import type { MomentRequest, MomentResponse } from './moment-reader.ts';

parentPort?.on('message', (request: MomentRequest) => {
  let response: MomentResponse;
  try {
    const events = request.chunks.flatMap(
      (chunk) => JSON.parse(gunzipSync(chunk).toString('utf8')) as unknown[],
    );
    response = { id: request.id, moment: eventsForMoment(events, request.at, request.until) };
  } catch {
    response = { id: request.id, moment: { kind: 'unreadable' } };
  }
  parentPort?.postMessage(response);
});
