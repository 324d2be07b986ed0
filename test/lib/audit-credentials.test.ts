import assert from 'node:assert/strict';
import { sealCredentials, unsealCredentials, UnusableCredentialsError } from '../../lib/audit-credentials.ts';

const SECRET = 'a-service-secret-of-enough-length-0123456789';
const credentials = {
  origin: 'https://app.example',
  headers: { Authorization: 'Bearer header-secret' },
  cookies: [{ name: 'session', value: 'cookie-secret' }],
};
const at = new Date('2026-11-30T10:00:00Z');
const later = (ms: number) => new Date(at.getTime() + ms);

describe('sealed audit credentials', () => {
  it('open under the same secret before they expire, and show nothing of themselves sealed', () => {
    const sealed = sealCredentials(credentials, SECRET, later(60_000));
    assert.match(sealed, /^v1\.[\w-]+\.[\w-]+$/);
    for (const secret of ['header-secret', 'cookie-secret', 'app.example', 'Authorization']) {
      assert.ok(!sealed.includes(secret) && !Buffer.from(sealed).toString('base64').includes(secret));
    }
    assert.deepEqual(unsealCredentials(sealed, SECRET, later(59_999)), credentials);
    assert.notEqual(sealCredentials(credentials, SECRET, later(60_000)), sealed, 'a fresh IV each time');
  });

  it('refuse to open once expired, under another secret, altered, or not sealed at all', () => {
    const sealed = sealCredentials(credentials, SECRET, later(60_000));
    assert.throws(() => unsealCredentials(sealed, SECRET, later(60_000)), UnusableCredentialsError);
    assert.throws(() => unsealCredentials(sealed, `${SECRET}-rotated`, at), UnusableCredentialsError);
    const [version, iv, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    assert.throws(
      () => unsealCredentials(`${version}.${iv}.${flipped.toString('base64url')}`, SECRET, at),
      UnusableCredentialsError,
    );
    assert.throws(() => unsealCredentials('{"headers":{}}', SECRET, at), UnusableCredentialsError);
  });
});
