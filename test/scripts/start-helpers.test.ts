import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { loadConfig } from '../../config/index.ts';
import { loadDotEnv } from '../../scripts/lib/dot-env.ts';
import { stopProcess } from '../../scripts/lib/processes.ts';
import { planTemporal } from '../../scripts/lib/temporal-plan.ts';
import { reachableUrl } from '../../scripts/lib/urls.ts';

/** A node child that has installed its signal handling (it says so on stdout). */
async function childThat(script: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-e', `${script}; console.log('ready'); setInterval(() => {}, 1000);`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await once(child.stdout, 'data');
  return child;
}

describe('npm start: which Temporal server it uses', () => {
  const defaults = { address: '127.0.0.1:7233', uiUrl: 'http://127.0.0.1:8233', uiUrlGiven: false };

  it('a server answering at the address is used, and its Web UI is known only when TEMPORAL_UI_URL says', () => {
    assert.deepEqual(planTemporal(defaults, true), {
      kind: 'use',
      address: '127.0.0.1:7233',
      uiUrl: undefined,
    });
    const given = {
      address: 'temporal.internal:7233',
      uiUrl: 'https://temporal-ui.internal',
      uiUrlGiven: true,
    };
    assert.deepEqual(planTemporal(given, true), {
      kind: 'use',
      address: 'temporal.internal:7233',
      uiUrl: 'https://temporal-ui.internal',
    });
  });

  it('nothing answering at a loopback address: a dev server starts on that address and the UI port of TEMPORAL_UI_URL', () => {
    assert.deepEqual(planTemporal(defaults, false), {
      kind: 'start',
      ip: '127.0.0.1',
      port: 7233,
      uiPort: 8233,
    });
    const moved = { address: 'localhost:17233', uiUrl: 'http://localhost:18233', uiUrlGiven: true };
    assert.deepEqual(planTemporal(moved, false), {
      kind: 'start',
      ip: '127.0.0.1',
      port: 17233,
      uiPort: 18233,
    });
    const ipv6 = { address: '[::1]:7300', uiUrl: 'http://[::1]:8300', uiUrlGiven: true };
    assert.deepEqual(planTemporal(ipv6, false), { kind: 'start', ip: '::1', port: 7300, uiPort: 8300 });
  });

  it('nothing answering at another host is an error naming TEMPORAL_ADDRESS', () => {
    const remote = { address: 'temporal.internal:7233', uiUrl: defaults.uiUrl, uiUrlGiven: false };
    assert.throws(
      () => planTemporal(remote, false),
      /TEMPORAL_ADDRESS=temporal\.internal:7233 does not answer/,
    );
  });
});

describe('npm start: printed URLs', () => {
  it('a wildcard HOST prints a loopback URL one can open', () => {
    assert.equal(reachableUrl('0.0.0.0', 3000), 'http://127.0.0.1:3000');
    assert.equal(reachableUrl('::', 3000), 'http://localhost:3000');
  });

  it('a specific HOST is printed as it is, IPv6 in brackets', () => {
    assert.equal(reachableUrl('127.0.0.1', 3000), 'http://127.0.0.1:3000');
    assert.equal(reachableUrl('api.internal', 8080), 'http://api.internal:8080');
    assert.equal(reachableUrl('::1', 3000), 'http://[::1]:3000');
  });
});

describe('npm start: stopping what it started', () => {
  it('a child that stops on SIGTERM ends by it', async () => {
    const child = await childThat('');
    assert.equal(await stopProcess(child, 30_000), 'exited');
    assert.equal(child.signalCode, 'SIGTERM');
  });

  it('a child that ignores SIGTERM is killed after the grace period', async () => {
    const child = await childThat("process.on('SIGTERM', () => {})");
    assert.equal(await stopProcess(child, 100), 'killed');
    assert.equal(child.signalCode, 'SIGKILL');
  });

  it('a child that has already exited is left alone', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    assert.equal(await stopProcess(child, 100), 'exited');
  });
});

describe('`.env` for npm start', () => {
  it('sets what the environment lacks, leaves what it has, and needs no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dot-env-'));
    try {
      const path = join(dir, '.env');
      writeFileSync(
        path,
        '# a comment\nJWT_SECRET=from-the-file\nEMAIL_PROVIDER=local\nQUOTED="two words"\n',
      );
      const env: NodeJS.ProcessEnv = { JWT_SECRET: 'from-the-shell' };
      assert.deepEqual(loadDotEnv(path, env), ['EMAIL_PROVIDER', 'QUOTED']);
      assert.deepEqual(env, { JWT_SECRET: 'from-the-shell', EMAIL_PROVIDER: 'local', QUOTED: 'two words' });
      assert.deepEqual(loadDotEnv(join(dir, 'missing.env'), env), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('.env.example names every variable docker-compose.yml requires, and production starts with it', () => {
    const example = parseEnv(readFileSync('.env.example', 'utf8'));
    const compose = readFileSync('docker-compose.yml', 'utf8');
    const required = [...compose.matchAll(/\$\{(\w+):\?/g)].map((match) => match[1]!);
    assert.ok(required.length >= 3);
    for (const name of new Set(required)) assert.ok(example[name], `.env.example sets ${name}`);
    const config = loadConfig({ ...example, NODE_ENV: 'production' });
    assert.deepEqual(
      [config.providers.email, config.providers.messaging, config.providers.ai, config.providers.payments],
      ['local', 'local', 'local', 'local'],
    );
  });
});
