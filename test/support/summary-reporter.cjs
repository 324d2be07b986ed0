// Mocha's spec reporter plus one closing line in the plain form CI reads: "N passed, N failed, N skipped".
// It also writes each spec file's time (its hooks included) and the counts to TEST_TIMES_FILE
// (default .data/test-times.json), slowest first: how docs/testing.md's table is measured, and how
// scripts/test.ts adds up its shards.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map();
    const fileMs = new Map();
    const runStarted = Date.now();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file && suite.parent?.root) started.set(suite, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const begun = started.get(suite);
      if (begun === undefined) return;
      const file = path.relative(process.cwd(), suite.file);
      fileMs.set(file, (fileMs.get(file) ?? 0) + Date.now() - begun);
    });
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      writeTimes({ totalMs: Date.now() - runStarted, passes, failures, pending }, fileMs);
      process.stdout.on('drain', () => {});
      setImmediate(() => console.log(`\n${passes} passed, ${failures} failed, ${pending} skipped`));
    });
  }
}

function writeTimes(summary, fileMs) {
  const files = [...fileMs].sort((a, b) => b[1] - a[1]).map(([file, ms]) => ({ file, ms }));
  const target = process.env.TEST_TIMES_FILE || '.data/test-times.json';
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, `${JSON.stringify({ ...summary, files }, null, 2)}\n`);
  } catch {
    // The figures are a convenience; a read-only tree must not fail the run.
  }
}

module.exports = SummaryReporter;
