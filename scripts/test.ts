// `npm test`: the whole suite in two shards at once, each a mocha process with a fresh database
// of its own and its own Temporal server (scripts/lib/suite-environment.ts, test/support/temporal.ts),
// then the files whose recognisers work in real time (`REAL_TIME_PROCESSES`) in processes of their
// own, with only a lowest-priority process of folders that fill the idle processor beside them
// (`BESIDE_REAL_TIME_FOLDERS`); or mocha over the spec files given as arguments
// (`npm test -- test/api/x.test.ts`) in one process. Other arguments go to mocha as they are.
// Exits non-zero when any process fails.
//
// Part of the suite's time is spent waiting (on browsers, workflows, servers restarting): two
// processes on two cores leave about a quarter of the processor idle; three kept it busy but
// starved the time-limited tests on a slow day (docs/testing.md).
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { prepareSuiteEnvironment, type SuiteEnvironment } from './lib/suite-environment.ts';
import { planSuite, specFiles } from './lib/test-shards.ts';
import { PROJECT_ROOT } from './lib/tools.ts';
import { SUITE_BUNDLE_VARIABLE, writeWorkflowBundle } from '../test/support/workflow-bundle.ts';

// Two: on a slow day three kept 20 to 30 processes runnable and the time-limited tests (instant
// audits' 10 s) failed, while two passed and finished sooner (docs/testing.md).
const SHARDS = 2;
/** The lowest priority: what runs beside the real-time files takes only what they leave. */
const LOWEST_PRIORITY = 19;
const TIMES_FILE = '.data/test-times.json';

interface ShardTimes {
  readonly totalMs: number;
  readonly passes: number;
  readonly failures: number;
  readonly pending: number;
  readonly files: readonly { file: string; ms: number }[];
}

const args = process.argv.slice(2);
// The spec list lives here rather than in .mocharc.json, because mocha adds the config's list to the
// command line's instead of replacing it.
const namesSpecFiles = args.some((arg) => arg.endsWith('.ts') && !arg.startsWith('-'));
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');

/**
 * Runs mocha in `suite`'s environment; `label` prefixes its output when shards share the console.
 * `priority` is a niceness, which the processes mocha starts (Temporal, workers) inherit.
 */
async function runShard(
  suite: SuiteEnvironment,
  mochaArgs: readonly string[],
  label: string | undefined,
  timesFile: string,
  priority = 0,
): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  try {
    const status = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [mocha, ...mochaArgs], {
        cwd: PROJECT_ROOT,
        stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        env: { ...process.env, ...suite.env, TEST_TIMES_FILE: timesFile },
      });
      try {
        if (priority && child.pid) setPriority(child.pid, priority);
      } catch {
        // Already exited (ESRCH): its exit code says why, below.
      }
      if (label) {
        for (const [stream, out] of [
          [child.stdout!, process.stdout],
          [child.stderr!, process.stderr],
        ] as const) {
          createInterface({ input: stream }).on('line', (line) => out.write(`${label} ${line}\n`));
        }
      }
      child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
    return { status, ms: Date.now() - started };
  } finally {
    await suite.dispose();
  }
}

async function readTimes(file: string): Promise<ShardTimes | undefined> {
  try {
    return JSON.parse(await readFile(join(PROJECT_ROOT, file), 'utf8')) as ShardTimes;
  } catch {
    return undefined;
  }
}

if (namesSpecFiles) {
  process.exit((await runShard(await prepareSuiteEnvironment('test'), args, undefined, TIMES_FILE)).status);
}

const started = Date.now();
const { shards, realTime, besideRealTime } = planSuite(specFiles(PROJECT_ROOT), SHARDS);
const runs = [...shards, ...realTime, ...besideRealTime].filter((files) => files.length);
const shardTimesFile = (index: number) => `.data/test-times-shard-${index + 1}.json`;
// One after the other: the first installs what is missing (Temporal's binaries, Chromium), which
// two at once would do twice over each other.
const environments: SuiteEnvironment[] = [];
// The workflows bundled once for every process (each took seconds of processor to do it), while
// the databases are made.
const bundlePath = join(tmpdir(), `usability-suite-workflows-${process.pid}.js`);
const bundled = writeWorkflowBundle(bundlePath);
bundled.catch(() => undefined); // awaited below, after the databases: a failure is thrown there
for (const _ of runs) environments.push(await prepareSuiteEnvironment('test'));
await bundled;
process.env[SUITE_BUNDLE_VARIABLE] = bundlePath;
const prepared = Date.now();
const ended = await Promise.all(
  shards.map((files, index) =>
    runShard(environments[index]!, [...args, ...files], `[${index + 1}]`, shardTimesFile(index)),
  ),
);
if (realTime.length) {
  const labelled = (name: string, count: number, offset: number) =>
    count > 1 ? `[${name} ${offset + 1}]` : `[${name}]`;
  const realTimeRuns = realTime.map((files, offset) => ({
    files,
    label: labelled('real-time', realTime.length, offset),
    priority: 0,
  }));
  const besideRuns = besideRealTime.map((files, offset) => ({
    files,
    label: labelled('beside', besideRealTime.length, offset),
    priority: LOWEST_PRIORITY,
  }));
  ended.push(
    ...(await Promise.all(
      [...realTimeRuns, ...besideRuns].map(({ files, label, priority }, offset) => {
        const index = shards.length + offset;
        return runShard(environments[index]!, [...args, ...files], label, shardTimesFile(index), priority);
      }),
    )),
  );
}

// One table of file times and one closing line, in the form a single run prints them.
const times = await Promise.all(runs.map((_, index) => readTimes(shardTimesFile(index))));
const sum = (pick: (t: ShardTimes) => number) => times.reduce((total, t) => total + (t ? pick(t) : 0), 0);
const merged = {
  totalMs: Date.now() - started,
  preparingMs: prepared - started,
  /** Each process from its start to its exit: shards, then the real-time files and those beside. */
  processMs: ended.map((run) => run.ms),
  /** Each process's mocha run, from its first test to its last (loading and exit left out). */
  shardMs: times.map((t) => t?.totalMs ?? null),
  passes: sum((t) => t.passes),
  failures: sum((t) => t.failures),
  pending: sum((t) => t.pending),
  files: times.flatMap((t) => t?.files ?? []).sort((a, b) => b.ms - a.ms),
};
await mkdir(join(PROJECT_ROOT, '.data'), { recursive: true });
await writeFile(join(PROJECT_ROOT, TIMES_FILE), `${JSON.stringify(merged, null, 2)}\n`);
await Promise.all(runs.map((_, index) => rm(join(PROJECT_ROOT, shardTimesFile(index)), { force: true })));
await rm(bundlePath, { force: true });

const failedShards = ended.filter((run) => run.status !== 0).length;
if (failedShards && !merged.failures) console.log(`\n${failedShards} process(es) exited with an error`);
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const longest = (runs: readonly { ms: number }[]) => Math.max(0, ...runs.map((run) => run.ms));
const realTimeText = realTime.length
  ? `, then ${realTime.flat().length} real-time file(s) in ${realTime.length} process(es) with ${besideRealTime.flat().length} file(s) beside them (${seconds(longest(ended.slice(shards.length)))})`
  : '';
console.log(
  `\n${shards.length} shards (${seconds(longest(ended.slice(0, shards.length)))})${realTimeText}: ${seconds(merged.totalMs)} in all; file times in ${TIMES_FILE}`,
);
console.log(`${merged.passes} passed, ${merged.failures} failed, ${merged.pending} skipped`);
process.exit(failedShards ? 1 : 0);
