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

  // The role is cluster-wide: whatever password it had before (none with trust authentication, or
  // one another database of the cluster set) is what it gets back. A stored hash given as the
  // password is kept as it is, not hashed again.
  let original: string | null;
  let previous: string | null;
  before(async () => {
    original = await passwordOf(testDatabaseUrl(), SERVICE_LOGIN_ROLE);
  });
  after(async () => {
    assert.equal(
      await passwordOf(testDatabaseUrl(), SERVICE_LOGIN_ROLE),
      original,
      'the password is restored',
    );
  });
  beforeEach(async () => {
    previous = await passwordOf(testDatabaseUrl(), SERVICE_LOGIN_ROLE);
  });
  afterEach(async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      const password = previous === null ? 'null' : client.escapeLiteral(previous);
      await client.query(`alter role ${SERVICE_LOGIN_ROLE} password ${password}`);
    } finally {
      await client.end();
    }
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
    assert.equal(await passwordOf(owner, SERVICE_LOGIN_ROLE), previous);
  });
});
