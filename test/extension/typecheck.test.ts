import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_DIR = fileURLToPath(new URL('../../extension', import.meta.url));

// The extension is plain JavaScript (the build adds only the offscreen bundle); its JSDoc types are checked by
// tsc with the browser's globals (extension/tsconfig.json), apart from the Node project's
// `npm run typecheck`, so this test is what keeps them checked.
describe('Browser extension: sources', () => {
  it('type-check cleanly with extension/tsconfig.json (strict, checkJs)', function () {
    this.timeout(60_000);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(SOURCE_DIR, 'tsconfig.json')], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });
});
