import { fileURLToPath } from 'node:url';
import { assertTypechecks } from '../support/typecheck.ts';

const TSCONFIG = fileURLToPath(new URL('../../api/pages/player/tsconfig.json', import.meta.url));

// The replay pages' player is plain JavaScript the browser runs as served; its JSDoc types are
// checked by tsc with the browser's globals (api/pages/player/tsconfig.json), apart from the Node
// project's `npm run typecheck`, so this test is what keeps them checked.
describe('The replay player: sources', () => {
  it('type-check cleanly with api/pages/player/tsconfig.json (strict, checkJs)', function () {
    this.timeout(60_000);
    assertTypechecks(TSCONFIG);
  });
});
