import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Seconds each test folder took on the reference machine (2 cores): the mean of two runs of
 * 2026-11-30 midday with the audits in Chromium's headless shell (`npm test` in the checkout and a
 * clean clone's `.ci/run`, their `.data/test-times.json`, docs/testing.md), where the shards slow
 * each other down. The shell took `audits` from 247 s to 128 s and `pages` from 101 s to 55 s
 * (against that day's first run). The real-time files are left out. Only their proportions
 * matter: they balance the shards. A folder missing here counts `UNKNOWN_FILE_SECONDS` a spec file.
 */
const FOLDER_SECONDS: Readonly<Record<string, number>> = {
  audits: 131,
  extension: 118,
  api: 98,
  sessions: 80,
  pages: 62,
  failure: 59,
  payments: 51,
  recordings: 26,
  scripts: 26,
  workflows: 23,
  ai: 22,
  auth: 19,
  outreach: 16,
  db: 9,
  community: 8,
  admin: 5,
  gamification: 5,
  webhooks: 5,
  testers: 4,
  ingestion: 2,
  commands: 1,
  config: 1,
  'facial-engine': 1,
  lib: 1,
  matching: 1,
};
const UNKNOWN_FILE_SECONDS = 5;

/**
 * Folders that go to the same shard. `audits` and `pages` both run instant audits in Chromium
 * against the spec's 10 seconds: in different shards, their audits ran at the same moment and
 * starved each other past the limit (a 2,000-link page answered 503, twice in two runs).
 */
const SAME_SHARD: readonly (readonly string[])[] = [['audits', 'pages']];

/** Every spec file under `test/`, as paths relative to the project's root, sorted. */
export function specFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) found.push(relative(root, path));
    }
  };
  walk(join(root, 'test'));
  return found.sort();
}

/**
 * The spec files split into `count` shards of about equal time. A folder stays whole: its files
 * share fixtures and the countries their studies recruit in. Longest folder (or group of folders,
 * `SAME_SHARD`) first, each to the shard with the least time so far; the second shard then runs its
 * folders in the opposite order.
 */
export function planShards(files: readonly string[], count: number): string[][] {
  const folders = new Map<string, string[]>();
  for (const file of files) {
    const folder = file.split('/')[1] ?? '';
    folders.set(folder, [...(folders.get(folder) ?? []), file]);
  }
  // A unit is a folder, or a group of folders that must share a shard (SAME_SHARD).
  const units = new Map<string, { seconds: number; files: string[] }>();
  for (const [folder, inFolder] of folders) {
    const key = SAME_SHARD.find((group) => group.includes(folder))?.join('+') ?? folder;
    const unit = units.get(key) ?? { seconds: 0, files: [] };
    unit.seconds += FOLDER_SECONDS[folder] ?? UNKNOWN_FILE_SECONDS * inFolder.length;
    unit.files.push(...inFolder);
    units.set(key, unit);
  }
  const shards = Array.from({ length: count }, () => ({ seconds: 0, units: [] as string[][] }));
  const longestFirst = [...units.entries()].sort(
    ([a, x], [b, y]) => y.seconds - x.seconds || a.localeCompare(b),
  );
  for (const [, unit] of longestFirst) {
    const lightest = shards.reduce((best, shard) => (shard.seconds < best.seconds ? shard : best));
    lightest.seconds += unit.seconds;
    lightest.units.push(unit.files);
  }
  // The longest folders are the browsers' (audits with pages, and extension). Every other shard
  // runs its folders shortest first, so one shard's browsers meet the other's waiting tests
  // instead of its browsers: longest first in both, the processor was saturated for the first
  // minutes and a quarter to a half idle for the last ones (docs/testing.md).
  return shards
    .map((shard, index) => (index % 2 ? [...shard.units].reverse() : shard.units).flat())
    .filter((shard) => shard.length > 0);
}

/**
 * Spec files run after the shards, in processes of their own that nothing of equal priority runs
 * beside (only `BESIDE_REAL_TIME_FOLDERS`, at the lowest): their recognisers work in real time on
 * Chromium's fake camera and microphone, and beside another shard the starved capture stutters
 * (transcripts garbled, a model still loading when the test looks). Two processes at once, of about
 * equal time (the microphone's suites about 60 s, the camera's about 55 s); one after the other, the
 * processor idled through both.
 */
export const REAL_TIME_PROCESSES: readonly (readonly string[])[] = [
  [
    // It listens to one turn of the fake microphone's 16-second loop.
    'test/extension/voice.test.ts',
    // Its tones reach the on-device recogniser as Chromium plays them: starved, 1 s was heard as 0.72 s.
    'test/extension/web-speech.test.ts',
  ],
  [
    'test/extension/facial.test.ts',
    // A whole session with both models loading at once: starved, a model outlasts its wait.
    'test/extension/nothing-private-leaves.test.ts',
  ],
];
export const REAL_TIME_FILES: readonly string[] = REAL_TIME_PROCESSES.flat();

/**
 * What runs beside the real-time files, in a process of its own at the lowest priority, instead of
 * in the shards: the real-time files leave the processor partly idle, and this fills some of it.
 * `payments`: it starts no browser (the recognisers' capture keeps the processor it asks for), holds
 * no check against a fixed limit of seconds, and takes about as long as the real-time files (50 to
 * 65 s). With `auth`, `outreach` and `ai` as well, in two processes (2026-11-29 night), the shards
 * took 417 and 445 s instead of 458 and 468, but the phase 102 s instead of 70: no faster in all
 * (docs/testing.md).
 */
export const BESIDE_REAL_TIME_FOLDERS: readonly string[] = ['payments'];
export const BESIDE_REAL_TIME_PROCESSES = 1;

export interface SuitePlan {
  /** Run at once, first. */
  readonly shards: string[][];
  /** Run after the shards, each list in a process at normal priority, at once. */
  readonly realTime: string[][];
  /** Run at the same time as `realTime`, each list in a process at the lowest priority. */
  readonly besideRealTime: string[][];
}

/**
 * The whole suite: `count` shards run at once (`planShards`), then the real-time files with the
 * folders that fill the processor beside them, split the same way. Without real-time files those
 * folders go to the shards.
 */
export function planSuite(files: readonly string[], count: number): SuitePlan {
  const realTime = REAL_TIME_PROCESSES.map((process) =>
    files.filter((file) => process.includes(file)),
  ).filter((process) => process.length > 0);
  const beside = realTime.length
    ? files.filter((file) => BESIDE_REAL_TIME_FOLDERS.includes(file.split('/')[1] ?? ''))
    : [];
  const rest = files.filter((file) => !REAL_TIME_FILES.includes(file) && !beside.includes(file));
  return {
    shards: planShards(rest, count),
    realTime,
    besideRealTime: planShards(beside, BESIDE_REAL_TIME_PROCESSES),
  };
}
