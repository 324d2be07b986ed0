// `node scripts/bootstrap.mjs setup`: what `npm start` and `npm test` install before they run (the
// dependencies, by the bootstrap, then the Temporal binaries and the Chromium and fonts checks), and nothing
// else. test/scripts/clean-tree.test.ts runs it in a fresh clone to prove the tree stays clean.
import { loadConfig } from '../config/index.ts';
import { chromium, liberationFonts, temporalCli, temporalTestServer } from './lib/tools.ts';

const config = loadConfig();
console.log(`[setup] temporal: ${temporalCli()}`);
console.log(`[setup] temporal test server: ${temporalTestServer()}`);
console.log(`[setup] chromium: ${chromium(config.audits.chromiumPath)}`);
console.log(`[setup] fonts: ${liberationFonts()}`);
