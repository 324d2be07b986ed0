import assert from 'node:assert/strict';
import { BoundedMap } from '../../lib/bounded-map.ts';

describe('a bounded map', () => {
  it('forgets the oldest key when a new one is set at capacity', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ] as const)
      map.set(key, value);
    assert.deepEqual(
      [...map],
      [
        ['b', 2],
        ['c', 3],
        ['d', 4],
      ],
    );
  });

  it('replaces a value at capacity without forgetting another key', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3);
    assert.deepEqual(
      [...map],
      [
        ['a', 3],
        ['b', 2],
      ],
    );
  });
});
