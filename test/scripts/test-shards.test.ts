import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BESIDE_REAL_TIME_FOLDERS,
  BESIDE_REAL_TIME_PROCESSES,
  REAL_TIME_PROCESSES,
  planShards,
  planSuite,
  specFiles,
} from '../../scripts/lib/test-shards.ts';
import { PROJECT_ROOT } from '../../scripts/lib/tools.ts';

const folderOf = (file: string) => file.split('/')[1];

describe('npm test: the suite split into shards (scripts/lib/test-shards.ts)', () => {
  const files = specFiles(PROJECT_ROOT);

  it('finds every spec file under test/, this one included', () => {
    assert.ok(files.includes('test/scripts/test-shards.test.ts'));
    assert.ok(files.every((file) => file.startsWith('test/') && file.endsWith('.test.ts')));
  });

  it('runs every spec file exactly once, and keeps each folder in one shard', () => {
    const shards = planShards(files, 2);
    assert.equal(shards.length, 2);
    assert.deepEqual(shards.flat().sort(), [...files].sort());
    const shardOf = new Map<string, number>();
    shards.forEach((shard, index) => {
      for (const file of shard) {
        const folder = folderOf(file)!;
        assert.equal(shardOf.get(folder) ?? index, index, `${folder} is split across shards`);
        shardOf.set(folder, index);
      }
    });
  });

  it('puts the longest folders apart: audits and extension in different shards', () => {
    const [first, second] = planShards(files, 2);
    assert.ok(first!.some((file) => folderOf(file) === 'audits'));
    assert.ok(second!.some((file) => folderOf(file) === 'extension'));
  });

  it('runs the first shard longest folder first and the second shortest first, so their browsers do not start together', () => {
    const [first, second] = planShards(files, 2);
    assert.equal(folderOf(first![0]!), 'audits');
    // The second shard's longest folder (the extension's browsers) comes last.
    const order = [...new Set(second!.map(folderOf))];
    assert.equal(order.at(-1), 'extension');
  });

  it('keeps the folders that run instant audits against the 10 s limit in one shard: audits and pages', () => {
    const shards = planShards(files, 2);
    const shardOf = (folder: string) =>
      shards.findIndex((shard) => shard.some((file) => folderOf(file) === folder));
    assert.notEqual(shardOf('audits'), -1);
    assert.equal(shardOf('pages'), shardOf('audits'));
  });

  it('runs the real-time media suites in processes of their own after the shards, the microphone suites apart from the camera suites, the folders beside them in others, and every other file in a shard once', () => {
    const { shards, realTime, besideRealTime } = planSuite(files, 3);
    assert.equal(shards.length, 3);
    assert.deepEqual(realTime, REAL_TIME_PROCESSES);
    assert.deepEqual(realTime[0], ['test/extension/voice.test.ts', 'test/extension/web-speech.test.ts']);
    assert.equal(besideRealTime.length, BESIDE_REAL_TIME_PROCESSES);
    assert.deepEqual(
      [...new Set(besideRealTime.flat().map(folderOf))].sort(),
      [...BESIDE_REAL_TIME_FOLDERS].sort(),
    );
    assert.deepEqual(
      [...shards.flat(), ...realTime.flat(), ...besideRealTime.flat()].sort(),
      [...files].sort(),
    );
  });

  it('starts no browser beside the real-time files: their capture keeps the processor', () => {
    const { besideRealTime } = planSuite(files, 3);
    const browsing = besideRealTime
      .flat()
      .filter((file) =>
        /playwright|chromium|BrowserPool|launchExtensionBrowser/i.test(
          readFileSync(join(PROJECT_ROOT, file), 'utf8'),
        ),
      );
    assert.deepEqual(browsing, []);
  });

  it('runs the folders meant beside the real-time files in the shards when there are none', () => {
    const { shards, realTime, besideRealTime } = planSuite(
      ['test/payments/a.test.ts', 'test/api/b.test.ts'],
      3,
    );
    assert.deepEqual([realTime.flat(), besideRealTime.flat()], [[], []]);
    assert.deepEqual(shards.flat().sort(), ['test/api/b.test.ts', 'test/payments/a.test.ts']);
  });

  it('gives a folder it has no time for a share by its number of files', () => {
    const shards = planShards(
      ['test/new-area/a.test.ts', 'test/new-area/b.test.ts', 'test/lib/x.test.ts'],
      2,
    );
    assert.deepEqual(shards, [
      ['test/new-area/a.test.ts', 'test/new-area/b.test.ts'],
      ['test/lib/x.test.ts'],
    ]);
  });
});
