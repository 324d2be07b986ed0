import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const TSCONFIG = fileURLToPath(new URL('../../api/pages/player/tsconfig.json', import.meta.url));

// The replay pages' player is plain JavaScript the browser runs as served; its JSDoc types are
// checked by tsc with the browser's globals (api/pages/player/tsconfig.json), apart from the Node
// project's `npm run typecheck`, so this test is what keeps them checked.
describe('The replay player: sources', () => {
  it('type-check cleanly with api/pages/player/tsconfig.json (strict, checkJs)', function () {
    this.timeout(60_000);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', TSCONFIG], { encoding: 'utf8' });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });
});
