// `npm test`: a fresh database of its own and the Temporal binaries (scripts/lib/suite-environment.ts),
// then mocha over test/**/*.test.ts, or over the spec files given as arguments (`npm test -- test/api/x.test.ts`).
// Other arguments go to mocha as they are. Exits with mocha's status.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { prepareSuiteEnvironment } from './lib/suite-environment.ts';
import { PROJECT_ROOT } from './lib/tools.ts';

const args = process.argv.slice(2);
// The spec list lives here rather than in .mocharc.json, because mocha adds the config's list to the
// command line's instead of replacing it.
const namesSpecFiles = args.some((arg) => arg.endsWith('.ts') && !arg.startsWith('-'));
const mochaArgs = namesSpecFiles ? args : [...args, 'test/**/*.test.ts'];

const suite = await prepareSuiteEnvironment('test');
let status: number;
try {
  const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
  status = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [mocha, ...mochaArgs], {
      cwd: PROJECT_ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...suite.env },
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
} finally {
  await suite.dispose();
}
process.exit(status);
