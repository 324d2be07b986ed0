import { Worker } from 'node:worker_threads';
import type { MomentEvents } from './moment-events.ts';

// Reads a moment's events from stored chunks on a thread of its own (moment-worker.ts), one request
// after another: the replay pages and the pictures ask while the process serves others.

/** What the thread answers: the moment's events, or `unreadable` for a chunk that no longer reads. */
export type ReadMoment = MomentEvents | { readonly kind: 'unreadable' };

export interface MomentRequest {
  readonly id: number;
  readonly chunks: readonly Uint8Array[];
  readonly at: number;
  readonly until: number;
}

export interface MomentResponse {
  readonly id: number;
  readonly moment: ReadMoment;
}

const WORKER_URL = new URL('./moment-worker.ts', import.meta.url);
/**
 * The thread starts by registering the TypeScript loader the process runs with (tsx), then loads the
 * reader: a worker given a `.ts` entry does not get the loader registered in time.
 */
const BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (moment: ReadMoment) => void; reject: (error: Error) => void }>();

/** The thread, started on first use; it does not keep the process alive while idle. */
function thread(): Worker {
  if (worker) return worker;
  const started = new Worker(BOOT, { eval: true });
  started.unref();
  started.on('message', (response: MomentResponse) => {
    waiting.get(response.id)?.resolve(response.moment);
    waiting.delete(response.id);
    if (!waiting.size) started.unref();
  });
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`the moment reader stopped (exit ${code})`)));
  worker = started;
  return started;
}

/**
 * The events from the last full snapshot at or before `at` through `until` (ms since the epoch) in
 * the stored chunks (gzip-compressed JSON arrays, in order), read off the event loop.
 */
export function readMoment(
  chunks: readonly { readonly data: Buffer }[],
  at: number,
  until: number,
): Promise<ReadMoment> {
  const id = nextId++;
  const reader = thread();
  return new Promise<ReadMoment>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    reader.ref(); // an answer is awaited
    const request: MomentRequest = { id, chunks: chunks.map((chunk) => chunk.data), at, until };
    reader.postMessage(request);
  });
}
