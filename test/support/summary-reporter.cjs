// Mocha's spec reporter plus one closing line in the plain form CI reads: "N passed, N failed, N skipped".
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.on('drain', () => {});
      setImmediate(() => console.log(`\n${passes} passed, ${failures} failed, ${pending} skipped`));
    });
  }
}

module.exports = SummaryReporter;
