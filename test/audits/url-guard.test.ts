import assert from 'node:assert/strict';
import { isBlockedAddress, isMetadataAddress } from '../../lib/blocked-addresses.ts';
import { assertAuditableUrl, BlockedUrlError } from '../../lib/url-guard.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';

describe('audit SSRF guard', function () {
  this.timeout(30_000);

  it('loopback, private, link-local and metadata addresses are blocked; public ones are not', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0.0.0.0',
      '::',
    ]) {
      assert.equal(isBlockedAddress(address), true, address);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) {
      assert.equal(isBlockedAddress(address), false, address);
    }
  });

  it('IPv4-compatible (::/96), 6to4 (2002::/16) and NAT64 forms are judged by the IPv4 address they embed', () => {
    for (const address of [
      '::7f00:1', // ::127.0.0.1
      '::a9fe:a9fe', // ::169.254.169.254
      '::10.0.0.1',
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
      '2002:c0a8:101::', // 6to4 of 192.168.1.1
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    ]) {
      assert.equal(isBlockedAddress(address), true, address);
    }
    // 6to4 and NAT64 of a public address reach that public host.
    for (const address of ['2002:5db8:d822::1', '64:ff9b::808:808']) {
      assert.equal(isBlockedAddress(address), false, address);
    }
  });

  it('the documentation ranges (TEST-NET-1/2/3, 2001:db8::/32), Teredo and site-local are blocked', () => {
    for (const address of [
      '192.0.2.10',
      '198.51.100.7',
      '203.0.113.99',
      '2001:db8::1',
      '2001:0:4136:e378::1',
      'fec0::1',
    ]) {
      assert.equal(isBlockedAddress(address), true, address);
    }
  });

  it('an allow-listed host:port passes although private; the same host on another port does not', async () => {
    const policy = { allowPrivate: false, allowedHosts: ['127.0.0.1:8080'] };
    assert.equal((await assertAuditableUrl('http://127.0.0.1:8080/page', policy)).port, '8080');
    await assert.rejects(assertAuditableUrl('http://127.0.0.1:8081/', policy), BlockedUrlError);
    await assert.rejects(assertAuditableUrl('http://127.0.0.1/', policy), BlockedUrlError);
    await assert.rejects(assertAuditableUrl('http://169.254.169.254/', policy), BlockedUrlError);
  });

  it('only http and https are auditable, even when private addresses are allowed', async () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)']) {
      await assert.rejects(assertAuditableUrl(url, { allowPrivate: true }), BlockedUrlError, url);
    }
  });

  it('the configuration switch lets tests audit 127.0.0.1', async () => {
    assert.equal((await assertAuditableUrl('http://127.0.0.1:8080/', { allowPrivate: true })).port, '8080');
  });

  it('link-local and cloud metadata addresses stay refused whatever the policy, in every spelling', async () => {
    const policies = [
      { allowPrivate: true },
      { allowPrivate: false, allowedHosts: ['169.254.169.254:80', '[fd00:ec2::254]:80'] },
    ];
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/',
      'http://0xA9FEA9FE/',
      'http://169.254.43518/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a9fe:a9fe::1]/',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/',
    ]) {
      for (const policy of policies) {
        await assert.rejects(
          assertAuditableUrl(url, policy),
          /link-local or cloud metadata/,
          `${url} ${JSON.stringify(policy)}`,
        );
      }
    }
    assert.equal(isMetadataAddress('169.254.1.1'), true);
    assert.equal(isMetadataAddress('10.0.0.1'), false);
    assert.equal(isMetadataAddress('::1'), false);
    // Loopback and private ranges stay the development switch's to allow.
    assert.equal((await assertAuditableUrl('http://10.1.2.3/', { allowPrivate: true })).hostname, '10.1.2.3');
  });

  describe('through the API with the default configuration', () => {
    let api: TestApi;
    let token: string;
    before(async () => {
      api = await startTestApi({ worker: false });
      token = await sessionToken((await createBusiness()).claims);
    });
    after(() => api.stop());

    for (const url of [
      'http://127.0.0.1:3000/',
      'http://localhost/',
      'http://10.0.0.5/admin',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:7f00:1]/',
    ]) {
      it(`instant and full audits of ${url} answer 422`, async () => {
        for (const path of ['/api/audits/instant', '/api/audits/full']) {
          const response = await api.request('POST', path, { token, body: { url } });
          assert.equal(response.status, 422, response.text);
          assert.match(response.body.error ?? '', /^url: /);
        }
      });
    }

    it('a non-http scheme answers 422 naming url', async () => {
      const response = await api.request('POST', '/api/audits/instant', {
        token,
        body: { url: 'ftp://example.com/' },
      });
      assert.equal(response.status, 422);
      assert.match(response.body.error ?? '', /^url: /);
    });
  });
});
