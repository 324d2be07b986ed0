import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Seconds each test folder took in a two-shard run on the reference machine (2 cores; the figures
 * in docs/testing.md), where the shards slow each other down; files that run alone are left out.
 * Only their proportions matter: they balance the shards. A folder missing here counts
 * `UNKNOWN_FILE_SECONDS` a spec file.
 */
const FOLDER_SECONDS: Readonly<Record<string, number>> = {
  audits: 365,
  scripts: 210,
  sessions: 199,
  pages: 166,
  extension: 110,
  payments: 81,
  failure: 67,
  api: 46,
  auth: 35,
  workflows: 22,
  outreach: 20,
  db: 18,
  ai: 17,
  community: 8,
  gamification: 5,
  'facial-engine': 4,
  testers: 3,
  admin: 3,
  ingestion: 3,
  matching: 1,
  lib: 1,
  config: 1,
};
const UNKNOWN_FILE_SECONDS = 5;

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
 * share fixtures on disk (the extension's unpacked copy, for one) and countries to recruit in.
 * Longest folder first, each to the shard with the least time so far.
 */
export function planShards(files: readonly string[], count: number): string[][] {
  const folders = new Map<string, string[]>();
  for (const file of files) {
    const folder = file.split('/')[1] ?? '';
    folders.set(folder, [...(folders.get(folder) ?? []), file]);
  }
  const weight = (folder: string) =>
    FOLDER_SECONDS[folder] ?? UNKNOWN_FILE_SECONDS * folders.get(folder)!.length;
  const shards = Array.from({ length: count }, () => ({ seconds: 0, files: [] as string[] }));
  for (const folder of [...folders.keys()].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lightest = shards.reduce((best, shard) => (shard.seconds < best.seconds ? shard : best));
    lightest.seconds += weight(folder);
    lightest.files.push(...folders.get(folder)!);
  }
  return shards.map((shard) => shard.files).filter((shard) => shard.length > 0);
}

/**
 * Spec files run after the shards, in a process of their own with the machine to themselves: their
 * recognisers work in real time on Chromium's fake camera and microphone, and beside another shard
 * the starved capture stutters (transcripts garbled, a model still loading when the test looks).
 */
export const ALONE_FILES: readonly string[] = [
  'test/extension/facial.test.ts',
  'test/extension/voice.test.ts',
];

/** The whole suite: `count` shards run at once (`planShards`), then the files that run alone. */
export function planSuite(files: readonly string[], count: number): { shards: string[][]; alone: string[] } {
  const alone = files.filter((file) => ALONE_FILES.includes(file));
  return {
    shards: planShards(
      files.filter((file) => !alone.includes(file)),
      count,
    ),
    alone,
  };
}
