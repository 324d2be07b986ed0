import assert from 'node:assert/strict';
import { ApiError } from '../../lib/errors.ts';
import { signWebhook, verifyWebhookSignature } from '../../api/auth/webhook-signature.ts';

const SECRET = 'whsec_test_secret';
const body = Buffer.from('{"id":"evt_1","type":"payout.paid","data":{"object":{"amount":1000}}}');
const now = new Date('2030-01-01T00:00:00Z');

function refusal(check: () => void): ApiError {
  try {
    check();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error;
  }
  assert.fail('the signature was accepted');
}

describe('webhook signature verification (HMAC-SHA256 over the raw body)', () => {
  it('accepts a signature computed from the raw body and the shared secret', () => {
    verifyWebhookSignature({ header: signWebhook(body, SECRET, now), rawBody: body, secrets: SECRET, now });
  });

  it('answers 401 when the header is absent', () => {
    const error = refusal(() =>
      verifyWebhookSignature({ header: undefined, rawBody: body, secrets: SECRET, now }),
    );
    assert.equal(error.status, 401);
    assert.match(error.message, /missing/);
  });

  it('answers 401 for a tampered body (one byte changed)', () => {
    const header = signWebhook(body, SECRET, now);
    const tampered = Buffer.from(body.toString().replace('1000', '9000'));
    assert.equal(
      refusal(() => verifyWebhookSignature({ header, rawBody: tampered, secrets: SECRET, now })).status,
      401,
    );
  });

  it('answers 401 for a tampered signature or one made with another secret', () => {
    const header = signWebhook(body, SECRET, now);
    const flipped = header.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    assert.equal(
      refusal(() => verifyWebhookSignature({ header: flipped, rawBody: body, secrets: SECRET, now })).status,
      401,
    );
    const other = signWebhook(body, 'another secret', now);
    assert.equal(
      refusal(() => verifyWebhookSignature({ header: other, rawBody: body, secrets: SECRET, now })).status,
      401,
    );
  });

  it('answers 401 for a replayed signature older than 5 minutes', () => {
    const header = signWebhook(body, SECRET, now);
    const later = new Date(now.getTime() + 301_000);
    const error = refusal(() =>
      verifyWebhookSignature({ header, rawBody: body, secrets: SECRET, now: later }),
    );
    assert.equal(error.status, 401);
    assert.match(error.message, /tolerance/);
    verifyWebhookSignature({
      header,
      rawBody: body,
      secrets: SECRET,
      now: new Date(now.getTime() + 299_000),
    });
  });

  it('answers 401 for a timestamp moved forward (the timestamp is signed with the body)', () => {
    const header = signWebhook(body, SECRET, now).replace(
      /t=\d+/,
      `t=${Math.floor(now.getTime() / 1000) + 60}`,
    );
    assert.equal(
      refusal(() => verifyWebhookSignature({ header, rawBody: body, secrets: SECRET, now })).status,
      401,
    );
  });

  it('answers 401 for a malformed header', () => {
    for (const header of ['garbage', 'v1=abcd', 't=123', 't=x,v1=ab']) {
      assert.equal(
        refusal(() => verifyWebhookSignature({ header, rawBody: body, secrets: SECRET, now })).status,
        401,
      );
    }
  });

  it('accepts a signature made with any of the secrets while one is being rotated', () => {
    const header = signWebhook(body, 'new secret', now);
    verifyWebhookSignature({ header, rawBody: body, secrets: [SECRET, 'new secret'], now });
  });
});
