import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES } from '../../config/index.ts';

const read = (file: string) => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');

/** The variable names in the first column of README's configuration table (`<n>` stands for 1 and 2). */
function readmeVariables(): Set<string> {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('## Configuration'));
  const table = section.slice(0, section.indexOf('\n## '));
  const names = new Set<string>();
  for (const line of table.split('\n')) {
    // The first cell (an escaped \| does not end it); the header and the rule hold no `NAME`s.
    const firstColumn = line.startsWith('|') ? (line.split(/(?<!\\)\|/)[1] ?? '') : '';
    for (const [, name] of firstColumn.matchAll(/`([A-Z0-9_<n>]+)`/g)) {
      for (const n of name!.includes('<n>') ? ['1', '2'] : ['']) names.add(name!.replace('<n>', n));
    }
  }
  return names;
}

/**
 * The keys of docker-compose.yml's `x-service-env` map (every service container gets it) and of
 * the Dockerfile's ENV line (the image's defaults). A line-based read: the map is flat.
 */
function containerVariables(): Set<string> {
  const names = new Set<string>();
  const lines = read('docker-compose.yml').split('\n');
  const start = lines.findIndex((line) => line.startsWith('x-service-env:'));
  assert.ok(start >= 0, 'docker-compose.yml has x-service-env');
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break; // the next top-level key
    const key = /^ {2}([A-Z][A-Z0-9_]*):/.exec(line)?.[1];
    if (key) names.add(key);
  }
  for (const [, name] of read('Dockerfile').matchAll(/(?:^ENV |\s)([A-Z][A-Z0-9_]*)=/gm)) names.add(name!);
  return names;
}

describe('every configuration variable is documented and reaches the containers', () => {
  it('the schema reads the variables this test knows of (sanity: the list is not empty)', () => {
    assert.ok(CONFIG_VARIABLES.includes('DATABASE_URL'));
    assert.ok(CONFIG_VARIABLES.includes('OAUTH_PROVIDER_2_USERINFO_URL'));
    assert.ok(CONFIG_VARIABLES.includes('CRON_SECRET'));
  });

  it("README's configuration table names every variable the configuration schema reads, and no other", () => {
    const documented = readmeVariables();
    assert.deepEqual(
      CONFIG_VARIABLES.filter((name) => !documented.has(name)),
      [],
      'missing from the README table',
    );
    assert.deepEqual(
      [...documented].filter((name) => !CONFIG_VARIABLES.includes(name)),
      [],
      'in the README table but not read by the configuration',
    );
  });

  it("docker-compose.yml's x-service-env (or the image's ENV) lists every variable, so each set one reaches the containers", () => {
    const passed = containerVariables();
    assert.deepEqual(
      CONFIG_VARIABLES.filter((name) => !passed.has(name)),
      [],
      'not passed into the containers',
    );
  });

  it('optional variables pass through only when set (`VAR:` without a value, never `${VAR:-}`)', () => {
    const compose = read('docker-compose.yml');
    // An empty string is not "unset": zod's min(1) and url() would refuse it and stop the service.
    assert.doesNotMatch(compose, /\$\{[A-Z0-9_]+:-\}/);
    assert.match(compose, /^ {2}STRIPE_SECRET_KEY:\s*$/m);
  });
});
