// `node scripts/bootstrap.mjs setup`: what `npm start` needs installed before it runs (the
// dependencies, by the bootstrap, then the Temporal binaries, the audit browser and its fonts), and
// nothing else; `npm test` installs these too, and the full Chromium and espeak-ng for the
// extension's suites (scripts/lib/suite-environment.ts). test/scripts/clean-tree.test.ts runs it
// in a fresh clone to prove the tree stays clean.
import { loadConfig } from '../config/index.ts';
import { chromium, liberationFonts, temporalCli, temporalTestServer } from './lib/tools.ts';

const config = loadConfig();
console.log(`[setup] temporal: ${temporalCli()}`);
console.log(`[setup] temporal test server: ${temporalTestServer()}`);
console.log(`[setup] chromium: ${chromium(config.audits.chromiumPath)}`);
console.log(`[setup] fonts: ${liberationFonts()}`);
