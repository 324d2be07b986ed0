import assert from 'node:assert/strict';
import pg from 'pg';
import { SERVICE_LOGIN_ROLE } from '../../config/index.ts';
import { setServiceLoginPassword } from '../../db/migrate.ts';
import { testDatabaseUrl } from '../support/database.ts';

const passwordOf = async (url: string, role: string): Promise<string | null> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ rolpassword: string | null }>(
      'select rolpassword from pg_authid where rolname = $1',
      [role],
    );
    return rows[0]?.rolpassword ?? null;
  } finally {
    await client.end();
  }
};

describe('the service login password (DATABASE_SERVICE_URL)', () => {
  const withPassword = (user: string, password: string) => {
    const url = new URL(testDatabaseUrl());
    url.username = user;
    url.password = password;
    return url.toString();
  };

  afterEach(async () => {
    // Trust authentication here: the role goes back to having no password.
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    await client.query(`alter role ${SERVICE_LOGIN_ROLE} password null`);
    await client.end();
  });

  it('gives usability_service the password its URL carries', async () => {
    const owner = testDatabaseUrl();
    assert.equal(
      await setServiceLoginPassword(
        owner,
        withPassword(SERVICE_LOGIN_ROLE, "s3cret'; drop"),
        SERVICE_LOGIN_ROLE,
      ),
      true,
    );
    const stored = await passwordOf(owner, SERVICE_LOGIN_ROLE);
    assert.ok(stored?.startsWith('SCRAM-SHA-256$') || stored?.startsWith('md5'), `stored: ${stored}`);
  });

  it('changes nothing for a URL without a password or naming another role', async () => {
    const owner = testDatabaseUrl();
    assert.equal(
      await setServiceLoginPassword(owner, withPassword(SERVICE_LOGIN_ROLE, ''), SERVICE_LOGIN_ROLE),
      false,
    );
    assert.equal(
      await setServiceLoginPassword(owner, withPassword('someone_else', 'x'), SERVICE_LOGIN_ROLE),
      false,
    );
    assert.equal(await passwordOf(owner, SERVICE_LOGIN_ROLE), null);
  });
});
