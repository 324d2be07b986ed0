import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { LOCKOUT_THRESHOLD } from '../../api/auth/login-lockout.ts';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { cookieValue, createPasswordUser, HOUR, MINUTE, setCookies, TestClock } from './helpers.ts';

describe('POST /api/auth/login (email and password)', () => {
  const clock = new TestClock();
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ now: clock.now, worker: false });
  });
  after(() => api.stop());

  it('sets the session JWT in an httpOnly, Secure, SameSite cookie and a separate refresh cookie', async () => {
    const user = await createPasswordUser('tester');
    const response = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(response.status, 200);
    const cookies = setCookies(response.headers);
    const session = cookies.get('session');
    assert.ok(session);
    assert.ok(session.attributes.includes('HttpOnly'));
    assert.ok(session.attributes.includes('Secure'));
    assert.ok(session.attributes.includes('SameSite=Lax'));
    const refresh = cookies.get('refresh_token');
    assert.ok(refresh && refresh.value.length >= 43);
    assert.ok(refresh.attributes.includes('HttpOnly'));
    assert.ok(refresh.attributes.includes('Path=/api/auth'));
    const claims = decodeJwt(session.value);
    assert.equal(claims.sub, user.id);
    assert.equal(claims.role, 'tester');
    assert.equal(claims.exp! - claims.iat!, 24 * 60 * 60);
    assert.equal((response.body.data as { sessionToken: string }).sessionToken, session.value);
  });

  it('the session JWT is accepted as the session cookie and as Authorization: Bearer', async () => {
    const user = await createPasswordUser('tester');
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    const jwt = cookieValue(login.headers, 'session');
    const byCookie = await api.request('GET', '/api/auth/me', { headers: { Cookie: `session=${jwt}` } });
    const byBearer = await api.request('GET', '/api/auth/me', { token: jwt });
    assert.equal(byCookie.status, 200);
    assert.equal(byBearer.status, 200);
    assert.equal((byBearer.body.data as { id: string }).id, user.id);
  });

  it('the session JWT expires after 24 hours', async () => {
    const user = await createPasswordUser('tester');
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    const jwt = cookieValue(login.headers, 'session');
    clock.advance(24 * HOUR - MINUTE);
    assert.equal((await api.request('GET', '/api/auth/me', { token: jwt })).status, 200);
    clock.advance(2 * MINUTE);
    const expired = await api.request('GET', '/api/auth/me', { token: jwt });
    assert.equal(expired.status, 401);
    assert.match(expired.body.error!, /expired/);
  });

  it('an unknown email, a wrong password and a password-less account get the same 401', async () => {
    const user = await createPasswordUser('tester');
    const passwordless = await createPasswordUser('tester');
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('users').set({ password_hash: null }).where('id', '=', passwordless.id).execute(),
    );
    const answers = await Promise.all([
      api.request('POST', '/api/auth/login', { body: { email: 'nobody-here@example.com', password: 'x' } }),
      api.request('POST', '/api/auth/login', { body: { email: user.email, password: 'wrong password' } }),
      api.request('POST', '/api/auth/login', { body: { email: passwordless.email, password: 'anything' } }),
    ]);
    for (const answer of answers) {
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error, 'Invalid email or password');
      assert.equal(setCookies(answer.headers).size, 0);
    }
  });

  it('locks an email after 5 failures: even the right password gets 429 with Retry-After until the lock ends', async () => {
    const user = await createPasswordUser('tester');
    for (let i = 0; i < 5; i++) {
      const failed = await api.request('POST', '/api/auth/login', {
        body: { email: user.email, password: `wrong ${i}` },
      });
      assert.equal(failed.status, 401);
    }
    const locked = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(locked.status, 429);
    assert.equal(locked.headers.get('Retry-After'), '60');
    clock.advance(MINUTE + 1000);
    const after = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(after.status, 200);
  });

  it('backs off longer with each failure past the threshold, and a success resets the count', async () => {
    const user = await createPasswordUser('tester');
    const fail = () =>
      api.request('POST', '/api/auth/login', { body: { email: user.email, password: 'no' } });
    for (let i = 0; i < 5; i++) await fail();
    clock.advance(MINUTE + 1000);
    await fail(); // sixth failure: two minutes
    const locked = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(locked.status, 429);
    assert.equal(locked.headers.get('Retry-After'), '120');
    clock.advance(2 * MINUTE + 1000);
    assert.equal(
      (await api.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password } }))
        .status,
      200,
    );
    assert.equal((await fail()).status, 401, 'the count starts again after a success');
  });

  it('locks unknown emails the same way, so the lockout reveals nothing', async () => {
    const email = `ghost-${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) {
      await api.request('POST', '/api/auth/login', { body: { email, password: 'no' } });
    }
    const locked = await api.request('POST', '/api/auth/login', { body: { email, password: 'no' } });
    assert.equal(locked.status, 429);
  });

  it('a suspended account with the right password gets 403 and no cookies', async () => {
    const user = await createPasswordUser('tester', 'suspended');
    const response = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(response.status, 403);
    assert.equal(setCookies(response.headers).size, 0);
  });

  it('answers 422 naming the field for a malformed email', async () => {
    const response = await api.request('POST', '/api/auth/login', { body: { email: 'nope', password: 'x' } });
    assert.equal(response.status, 422);
    assert.match(response.body.error!, /^email:/);
  });
});

describe('login lockout under a parallel burst', () => {
  it(`verifies no more than ${LOCKOUT_THRESHOLD} wrong passwords of a simultaneous burst: the rest get 429 unverified`, async () => {
    const clock = new TestClock();
    const api = await startTestApi({ now: clock.now, worker: false });
    try {
      const user = await createPasswordUser('tester');
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api.request('POST', '/api/auth/login', { body: { email: user.email, password: `wrong ${i}` } }),
        ),
      );
      const statuses = burst.map((response) => response.status);
      // A 401 is a password that was checked; a 429 was refused before any check.
      assert.equal(statuses.filter((status) => status === 401).length, LOCKOUT_THRESHOLD, statuses.join(' '));
      assert.equal(statuses.filter((status) => status === 429).length, 20 - LOCKOUT_THRESHOLD);
      const right = await api.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      assert.equal(right.status, 429, 'the lock holds for the right password too');
    } finally {
      await api.stop();
    }
  });
});

describe('session cookies in development', () => {
  it('are not Secure in development, where localhost is plain http', async () => {
    const api = await startTestApi({ env: { NODE_ENV: 'development' }, worker: false });
    try {
      const user = await createPasswordUser('tester');
      const response = await api.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      assert.equal(response.status, 200);
      assert.ok(!setCookies(response.headers).get('session')!.attributes.includes('Secure'));
    } finally {
      await api.stop();
    }
  });
});

describe('POST /api/auth/register', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ worker: false });
  });
  after(() => api.stop());

  it('creates a business account that owns a new organization; its JWT carries organization_id', async () => {
    const email = `Founder-${Date.now()}@Example.com`;
    const response = await api.request('POST', '/api/auth/register', {
      body: { email, password: 'a long enough password', role: 'business', organizationName: 'Acme' },
    });
    assert.equal(response.status, 201);
    const data = response.body.data as {
      user: { email: string; organizationId: string };
      sessionToken: string;
    };
    assert.equal(data.user.email, email.toLowerCase());
    assert.ok(data.user.organizationId);
    assert.equal(decodeJwt(data.sessionToken).organization_id, data.user.organizationId);
    const login = await api.request('POST', '/api/auth/login', {
      body: { email, password: 'a long enough password' },
    });
    assert.equal(login.status, 200);
  });

  it('refuses a second account with the same email (409) and passwords under 10 characters (422)', async () => {
    const email = `twice-${Date.now()}@example.com`;
    const body = { email, password: 'a long enough password', role: 'tester' };
    assert.equal((await api.request('POST', '/api/auth/register', { body })).status, 201);
    assert.equal((await api.request('POST', '/api/auth/register', { body })).status, 409);
    const short = await api.request('POST', '/api/auth/register', {
      body: { ...body, email: `x${email}`, password: 'short' },
    });
    assert.equal(short.status, 422);
    assert.match(short.body.error!, /^password:/);
  });
});
