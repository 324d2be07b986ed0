// The ingestion benchmark's load: 1,000-event batches the extension could send, the same on both
// sides of the comparison (the API's JSON and the raw COPY's rows are built from these).
import { EVENT_TYPES } from '../../../lib/domain.ts';

export const BATCH_ITEMS = 1000;

const SELECTORS = ['#checkout > button.pay', 'nav a[href="/cart"]', 'input#email', 'main h1', 'form .error'];
const TYPES = EVENT_TYPES;

export interface BenchEvent {
  readonly eventType: (typeof TYPES)[number];
  readonly targetSelector: string;
  readonly timestamp: string;
  readonly x: number;
  readonly y: number;
  readonly scrollY?: number;
  readonly inputLength?: number;
  readonly viewport: { readonly width: number; readonly height: number };
}

/** Batch number `seed`: varied types, coordinates and times, no two events alike across seeds. */
export function eventBatch(seed: number): BenchEvent[] {
  const start = Date.UTC(2026, 0, 15, 10) + seed * BATCH_ITEMS * 50;
  return Array.from({ length: BATCH_ITEMS }, (_, i) => ({
    eventType: TYPES[i % TYPES.length]!,
    targetSelector: SELECTORS[i % SELECTORS.length]!,
    timestamp: new Date(start + i * 50).toISOString(),
    x: (i * 37) % 1280,
    y: (i * 53) % 800,
    ...(i % 7 === 1 ? { scrollY: i * 3 } : {}),
    ...(i % 7 === 2 ? { inputLength: i % 40 } : {}),
    viewport: { width: 1280, height: 800 },
  }));
}
