import { gunzipSync } from 'node:zlib';

// One chunk of a DOM recording as the extension sends it: rrweb events, a JSON array, gzip-compressed
// (docs/decisions/sessions.md, "Screen recordings"). The API opens each chunk once, to measure it
// (its first and last moment, whether it holds a full snapshot) and to refuse what a masked
// recorder never sends: an input's value, a canvas's pixels. The chunk is stored as it came.

/** A chunk's compressed bytes at most. */
export const MAX_CHUNK_BYTES = 1024 * 1024;
/** A chunk's JSON once inflated at most: a small gzip that inflates past this is refused. */
export const MAX_CHUNK_INFLATED_BYTES = 16 * 1024 * 1024;
/** Events in one chunk at most. */
export const MAX_CHUNK_EVENTS = 50_000;

/** rrweb's event types (`EventType`) and incremental sources (`IncrementalSource`) this reads. */
const FULL_SNAPSHOT = 2;
const INCREMENTAL_SNAPSHOT = 3;
const MUTATION = 0;
const INPUT = 5;
const CANVAS_MUTATION = 9;
const ELEMENT_NODE = 2;

/** Inputs whose `value` is chosen, not typed: a radio's or checkbox's own value, a button's label. */
const UNTYPED_INPUT_TYPES = new Set(['radio', 'checkbox', 'submit', 'button', 'reset', 'image']);
const MASKED = /^\**$/;

export interface MeasuredChunk {
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly eventCount: number;
  readonly hasFullSnapshot: boolean;
  readonly data: Buffer;
}

export type ChunkReading =
  { readonly ok: true; readonly chunk: MeasuredChunk } | { readonly ok: false; readonly reason: string };

interface RecordedEvent {
  readonly type: number;
  readonly timestamp: number;
  readonly data?: unknown;
}

interface SerializedNode {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly tagName?: unknown;
  readonly attributes?: Record<string, unknown>;
  readonly childNodes?: unknown;
}

const refuse = (reason: string): ChunkReading => ({ ok: false, reason });

/** Opens, checks and measures one chunk (its bytes as decoded from base64). */
export function readChunk(data: Buffer): ChunkReading {
  if (data.length > MAX_CHUNK_BYTES) return refuse(`at most ${MAX_CHUNK_BYTES} bytes compressed`);
  let events: unknown;
  try {
    const json = gunzipSync(data, { maxOutputLength: MAX_CHUNK_INFLATED_BYTES });
    events = JSON.parse(json.toString('utf8'));
  } catch (error) {
    const tooLarge = (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
    return refuse(
      tooLarge
        ? `at most ${MAX_CHUNK_INFLATED_BYTES} bytes once inflated`
        : 'must be a gzip-compressed JSON array of rrweb events',
    );
  }
  if (!Array.isArray(events) || events.length === 0)
    return refuse('must hold a non-empty JSON array of rrweb events');
  if (events.length > MAX_CHUNK_EVENTS) return refuse(`at most ${MAX_CHUNK_EVENTS} events`);
  if (!events.every(isRecordedEvent)) return refuse('every event needs an integer type and a timestamp');
  const privacy = privacyBreach(events);
  if (privacy) return refuse(privacy);
  let [first, last] = [Infinity, -Infinity];
  for (const { timestamp } of events) [first, last] = [Math.min(first, timestamp), Math.max(last, timestamp)];
  return {
    ok: true,
    chunk: {
      startedAt: new Date(first),
      endedAt: new Date(last),
      eventCount: events.length,
      hasFullSnapshot: events.some((event) => event.type === FULL_SNAPSHOT),
      data,
    },
  };
}

function isRecordedEvent(event: unknown): event is RecordedEvent {
  if (typeof event !== 'object' || event === null) return false;
  const { type, timestamp } = event as Partial<RecordedEvent>;
  return (
    Number.isInteger(type) &&
    typeof timestamp === 'number' &&
    // From 1970 to 9999, as the other signals' timestamps.
    timestamp >= 0 &&
    timestamp < 253_402_300_800_000
  );
}

/**
 * What a masked recorder never sends, if this chunk holds it: an unmasked value of a field the tester
 * types in (in a snapshot, an added node or an input event whose node the chunk describes) or a
 * canvas drawing. The recorder's masking is the guarantee; this catches a recorder that lost it.
 */
function privacyBreach(events: readonly RecordedEvent[]): string | undefined {
  const typed = new Set<number>();
  // A walk with a stack of its own: a crafted chunk may nest nodes deeper than the call stack goes.
  const visit = (root: SerializedNode): string | undefined => {
    const pending: SerializedNode[] = [root];
    for (let node = pending.pop(); node; node = pending.pop()) {
      if (node.type === ELEMENT_NODE && typeof node.tagName === 'string') {
        const tag = node.tagName.toLowerCase();
        const declared = node.attributes?.type;
        const type = typeof declared === 'string' ? declared.toLowerCase() : '';
        if (['input', 'textarea', 'select'].includes(tag)) {
          const isTyped = !(tag === 'input' && UNTYPED_INPUT_TYPES.has(type));
          if (isTyped && typeof node.id === 'number') typed.add(node.id);
          const value = node.attributes?.value;
          if (isTyped && typeof value === 'string' && !MASKED.test(value))
            return `an unmasked ${tag} value: every field's value must be masked`;
        }
      }
      if (Array.isArray(node.childNodes))
        for (const child of node.childNodes as unknown[])
          if (child && typeof child === 'object') pending.push(child);
    }
    return undefined;
  };
  for (const event of events) {
    const data = (event.data ?? {}) as {
      node?: SerializedNode;
      source?: unknown;
      adds?: { node?: SerializedNode }[];
      id?: unknown;
      text?: unknown;
    };
    if (event.type === FULL_SNAPSHOT && data.node) {
      const breach = visit(data.node);
      if (breach) return breach;
    }
    if (event.type !== INCREMENTAL_SNAPSHOT) continue;
    if (data.source === CANVAS_MUTATION) return 'a canvas drawing: canvases are not recorded';
    if (data.source === MUTATION && Array.isArray(data.adds))
      for (const added of data.adds) {
        const breach = added?.node ? visit(added.node) : undefined;
        if (breach) return breach;
      }
    if (data.source === INPUT && typeof data.id === 'number' && typeof data.text === 'string') {
      if (typed.has(data.id) && !MASKED.test(data.text))
        return "an unmasked input event: the tester's typing must be masked";
    }
  }
  return undefined;
}
