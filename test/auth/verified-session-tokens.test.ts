import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { InvalidSessionToken, signSessionJwt, verifySessionJwt } from '../../api/auth/session-jwt.ts';
import { VerifiedSessionTokens } from '../../api/auth/verified-session-tokens.ts';

const SECRET = 'a-secret-of-the-tests-a-secret-of-the-tests-0123';
const ISSUED = new Date('2030-01-01T00:00:00.000Z');
const claims = () => ({ sub: randomUUID(), role: 'business' as const, organization_id: randomUUID() });

/** A cache whose underlying verification is counted. */
function counted() {
  const calls: string[] = [];
  const tokens = new VerifiedSessionTokens(SECRET, (token, secret, now) => {
    calls.push(token);
    return verifySessionJwt(token, secret, now);
  });
  return { tokens, calls };
}

const at = (seconds: number) => new Date(ISSUED.getTime() + seconds * 1000);

describe('verified session tokens', () => {
  it('checks a token once, then answers the same claims from memory', async () => {
    const { tokens, calls } = counted();
    const token = await signSessionJwt(claims(), SECRET, ISSUED, 3600);
    const first = await tokens.claimsOf(token, at(1));
    assert.deepEqual(await tokens.claimsOf(token, at(2)), first);
    assert.equal(calls.length, 1);
  });

  it('refuses a remembered token from the second of its expiry, with the message jose would give', async () => {
    const { tokens } = counted();
    const token = await signSessionJwt(claims(), SECRET, ISSUED, 60);
    await tokens.claimsOf(token, at(59.999));
    await assert.rejects(tokens.claimsOf(token, at(60)), new InvalidSessionToken('Session token expired'));
    // As verified from scratch at that moment.
    await assert.rejects(
      verifySessionJwt(token, SECRET, at(60)),
      new InvalidSessionToken('Session token expired'),
    );
  });

  it('remembers no failure: a forged token is checked, and refused, every time', async () => {
    const { tokens, calls } = counted();
    const genuine = await signSessionJwt(claims(), SECRET, ISSUED, 3600);
    await tokens.claimsOf(genuine, at(1));
    const forged = await signSessionJwt(claims(), 'another-secret-another-secret-another-0123', ISSUED, 3600);
    const alteredPayload = [genuine.split('.')[0], forged.split('.')[1], genuine.split('.')[2]].join('.');
    for (const token of [forged, forged, alteredPayload, alteredPayload]) {
      await assert.rejects(tokens.claimsOf(token, at(1)), InvalidSessionToken);
    }
    assert.equal(calls.length, 5);
  });

  it('checks a token with a not-before time on every use', async () => {
    const { tokens, calls } = counted();
    const token = await new SignJWT({ role: 'business', organization_id: null })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(randomUUID())
      .setNotBefore(Math.floor(ISSUED.getTime() / 1000) + 10)
      .setExpirationTime(Math.floor(ISSUED.getTime() / 1000) + 3600)
      .sign(new TextEncoder().encode(SECRET));
    await tokens.claimsOf(token, at(20));
    await assert.rejects(tokens.claimsOf(token, at(5)), InvalidSessionToken);
    assert.equal(calls.length, 2);
  });

  it('keeps at most 10,000 tokens, forgetting the oldest first', async () => {
    // Tokens in the JWT's form that a stand-in verification accepts: signing 10,001 would take seconds.
    const calls: string[] = [];
    const tokens = new VerifiedSessionTokens(SECRET, (token) => {
      calls.push(token);
      return Promise.resolve(claims());
    });
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const issued = Array.from(
      { length: 10_001 },
      (_, index) => `${part({ alg: 'HS256' })}.${part({ exp: 2_000_000_000, n: index })}.signature`,
    );
    for (const token of issued) await tokens.claimsOf(token, at(1));
    await tokens.claimsOf(issued[10_000]!, at(1));
    await tokens.claimsOf(issued[1]!, at(1));
    assert.equal(calls.length, 10_001, 'the newest are remembered');
    await tokens.claimsOf(issued[0]!, at(1));
    assert.equal(calls.length, 10_002, 'the oldest was forgotten');
  });
});
