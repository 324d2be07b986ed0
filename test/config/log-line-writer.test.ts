import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LogLineWriter } from '../../config/log-line-writer.ts';
import { eventually } from '../audits/polling.ts';

const LOGGER = fileURLToPath(new URL('../../config/logger.ts', import.meta.url));
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Runs `source` (an ES module) in a Node process of its own; resolves with its standard output. */
function run(source: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`exited ${code}`))));
  });
}

describe('log lines (config/log-line-writer.ts)', function () {
  this.timeout(30_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'log-lines-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes every line in order after the turn that logged it, lines logged during a write next', async () => {
    const path = join(dir, 'order.log');
    const fd = openSync(path, 'w');
    try {
      const writer = new LogLineWriter(fd);
      const lines = Array.from({ length: 5000 }, (_, index) => `{"line":${index},"text":"é ✓"}\n`);
      for (const line of lines.slice(0, 2500)) writer.write(line);
      assert.equal(readFileSync(path, 'utf8'), '', 'nothing is written during the turn itself');
      await turn();
      for (const line of lines.slice(2500)) writer.write(line);
      await eventually(() => readFileSync(path, 'utf8').length >= lines.join('').length, 5000);
      assert.equal(readFileSync(path, 'utf8'), lines.join(''));
    } finally {
      closeSync(fd);
    }
  });

  it('writes what is pending when flushed synchronously', () => {
    const path = join(dir, 'flush.log');
    const fd = openSync(path, 'w');
    try {
      const writer = new LogLineWriter(fd);
      writer.write('{"a":1}\n');
      writer.write('{"b":2}\n');
      writer.flushSync();
      assert.equal(readFileSync(path, 'utf8'), '{"a":1}\n{"b":2}\n');
    } finally {
      closeSync(fd);
    }
  });

  it("loses no line of a process that exits right after logging (the service's logger on stdout)", async () => {
    const output = await run(
      [
        `const { createLogger } = await import(${JSON.stringify(LOGGER)});`,
        "const logger = createLogger({ logLevel: 'info' }, 'exit-test');",
        "for (let index = 0; index < 3000; index += 1) logger.info({ index }, 'line');",
        'process.exit(0);',
      ].join('\n'),
    );
    const indexes = output
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { index: number; name: string }).index);
    assert.deepEqual(
      indexes,
      Array.from({ length: 3000 }, (_, index) => index),
    );
  });
});
