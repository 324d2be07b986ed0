import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { eventsForMoment, MAX_MOMENT_EVENTS } from '../../lib/recording/moment-events.ts';
import { readMoment } from '../../lib/recording/moment-reader.ts';

const META = 4;
const FULL = 2;
const INCREMENTAL = 3;
const event = (type: number, timestamp: number) => ({ type, timestamp, data: {} });

// Which events replay a finding's moment (lib/recording/moment-events.ts).
describe("a moment's events, cut from a recording", () => {
  const recording = [
    event(META, 1_000),
    event(FULL, 1_001),
    event(INCREMENTAL, 2_000),
    event(META, 60_000),
    event(FULL, 60_001),
    event(INCREMENTAL, 61_000),
    event(INCREMENTAL, 70_000),
  ];

  it('starts at the last full snapshot at or before the moment, with its Meta, and ends at the moment', () => {
    assert.deepEqual(eventsForMoment(recording, 65_000), {
      kind: 'events',
      events: [recording[3], recording[4], recording[5]],
    });
    assert.deepEqual(eventsForMoment(recording, 30_000), {
      kind: 'events',
      events: [recording[0], recording[1], recording[2]],
    });
    // The snapshot at the very moment counts; one a millisecond later does not.
    assert.deepEqual(eventsForMoment(recording, 60_001), {
      kind: 'events',
      events: [recording[3], recording[4]],
    });
    assert.deepEqual(eventsForMoment(recording, 60_000), {
      kind: 'events',
      events: [recording[0], recording[1], recording[2], recording[3]],
    });
  });

  it('reads on to `until` from the snapshot chosen by the moment (a replay to watch)', () => {
    assert.deepEqual(eventsForMoment(recording, 30_000, 65_000), {
      kind: 'events',
      events: recording.slice(0, 6),
    });
  });

  it('finds nothing before the first snapshot, and refuses a replay past its bound', () => {
    assert.deepEqual(eventsForMoment(recording, 999), { kind: 'no_snapshot' });
    assert.deepEqual(eventsForMoment([event(INCREMENTAL, 5), 'not an event', null], 10), {
      kind: 'no_snapshot',
    });
    const busy = [
      event(FULL, 0),
      ...Array.from({ length: MAX_MOMENT_EVENTS }, (_, i) => event(INCREMENTAL, i + 1)),
    ];
    assert.deepEqual(eventsForMoment(busy, MAX_MOMENT_EVENTS + 1), { kind: 'too_many' });
    assert.equal(eventsForMoment(busy, MAX_MOMENT_EVENTS - 1).kind, 'events');
  });

  it('reads stored chunks in order on a thread of its own, and says when one no longer reads', async () => {
    const chunks = [recording.slice(0, 3), recording.slice(3)].map((list) => ({
      data: gzipSync(JSON.stringify(list)),
    }));
    assert.deepEqual(await readMoment(chunks, 65_000, 65_000), eventsForMoment(recording, 65_000));
    assert.deepEqual(await readMoment(chunks, 30_000, 65_000), eventsForMoment(recording, 30_000, 65_000));
    // Several at once are answered each with its own.
    const [early, late] = await Promise.all([
      readMoment(chunks, 999, 999),
      readMoment(chunks, 60_000, 60_000),
    ]);
    assert.deepEqual(early, { kind: 'no_snapshot' });
    assert.deepEqual(late, eventsForMoment(recording, 60_000));
    const broken = [chunks[0]!, { data: Buffer.from('not gzip') }];
    assert.deepEqual(await readMoment(broken, 65_000, 65_000), { kind: 'unreadable' });
  });
});
