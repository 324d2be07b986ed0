// `npm test`: a fresh database of its own and the Temporal binaries (scripts/lib/suite-environment.ts),
// then mocha over test/**/*.test.ts. Arguments go to mocha. Exits with mocha's status.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { prepareSuiteEnvironment } from './lib/suite-environment.ts';
import { PROJECT_ROOT } from './lib/tools.ts';

const suite = await prepareSuiteEnvironment('test');
let status: number;
try {
  const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
  status = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [mocha, ...process.argv.slice(2)], {
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
