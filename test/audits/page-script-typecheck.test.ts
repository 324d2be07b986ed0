import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const TSCONFIG = fileURLToPath(new URL('../../activities/audits/page-script/tsconfig.json', import.meta.url));

// The audit kit is plain JavaScript that page-script.ts reads as text and Chromium runs in the
// audited page; its JSDoc types are checked by tsc with the browser's globals
// (activities/audits/page-script/tsconfig.json), apart from the Node project's `npm run typecheck`,
// so this test is what keeps them checked.
describe('Audit page script: sources', () => {
  it('type-check cleanly with activities/audits/page-script/tsconfig.json (strict, checkJs)', function () {
    this.timeout(60_000);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', TSCONFIG], { encoding: 'utf8' });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });
});
