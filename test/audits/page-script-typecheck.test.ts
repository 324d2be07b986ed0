import { fileURLToPath } from 'node:url';
import { assertTypechecks } from '../support/typecheck.ts';

const TSCONFIG = fileURLToPath(new URL('../../activities/audits/page-script/tsconfig.json', import.meta.url));

// The audit kit is plain JavaScript that page-script.ts reads as text and Chromium runs in the
// audited page; its JSDoc types are checked by tsc with the browser's globals
// (activities/audits/page-script/tsconfig.json), apart from the Node project's `npm run typecheck`,
// so this test is what keeps them checked.
describe('Audit page script: sources', () => {
  it('type-check cleanly with activities/audits/page-script/tsconfig.json (strict, checkJs)', function () {
    this.timeout(60_000);
    assertTypechecks(TSCONFIG);
  });
});
