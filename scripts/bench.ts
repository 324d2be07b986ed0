// `npm run bench -- [name]`: runs test/bench/<name>.ts (all but the soak when no name) against a database and
// Temporal server of its own, and writes .data/bench/<name>.json with the figures.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { prepareSuiteEnvironment } from './lib/suite-environment.ts';
import { PROJECT_ROOT } from './lib/tools.ts';

export interface BenchResult {
  /**
   * Numbers, per-target verdicts, a list of findings (e.g. the audit's missed pa11y defects; empty is
   * good), or a figure's value in each of several rounds.
   */
  readonly figures: Record<string, number | boolean | readonly string[] | readonly number[]>;
  readonly runs: number;
  /** Where a benchmark has targets (issue text): the figures it must reach, and whether it did. */
  readonly targets?: Record<string, number>;
  readonly meetsTargets?: boolean;
}

/**
 * Run only when named: the soak takes half an hour; the ACT benchmark needs the W3C test cases
 * (ACT_RULES_DIR) and audits 549 pages twice.
 */
const ON_REQUEST_ONLY = ['soak', 'act'];
const benchDir = join(PROJECT_ROOT, 'test', 'bench');
const outDir = join(PROJECT_ROOT, '.data', 'bench');
const available = (await readdir(benchDir))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -3));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

const suite = await prepareSuiteEnvironment('bench');
Object.assign(process.env, suite.env);
let failed = false;
try {
  await mkdir(outDir, { recursive: true });
  for (const name of wanted.length ? wanted : available.filter((one) => !ON_REQUEST_ONLY.includes(one))) {
    console.log(`[bench] ${name}...`);
    try {
      const module = (await import(pathToFileURL(join(benchDir, `${name}.ts`)).href)) as {
        run(): Promise<BenchResult>;
      };
      const { figures, runs, targets, meetsTargets } = await module.run();
      const record = {
        name,
        machine: { cpus: cpus().length, node: process.version },
        figures,
        runs,
        ...(targets ? { targets, meetsTargets } : {}),
      };
      await writeFile(join(outDir, `${name}.json`), `${JSON.stringify(record, null, 2)}\n`);
      console.log(`[bench] ${name}: ${JSON.stringify(figures)} -> .data/bench/${name}.json`);
    } catch (error) {
      failed = true;
      console.error(`[bench] ${name} failed:`, error);
    }
  }
} finally {
  const { stopTemporal } = await import('../test/support/temporal.ts');
  const { closeTestDatabase } = await import('../test/support/database.ts');
  await stopTemporal();
  await closeTestDatabase();
  await suite.dispose();
}
process.exit(failed ? 1 : 0);
