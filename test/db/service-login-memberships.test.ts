import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { SERVICE_LOGIN_ROLE } from '../../config/index.ts';
import { testDatabaseUrl } from '../support/database.ts';

const MIGRATION = new URL('../../db/migrations/0027_auth_ops.sql', import.meta.url);

describe('the service login belongs to the two doors and nothing else (0027)', () => {
  // Roles are cluster-wide: a role of this test's own, with no privilege, dropped afterwards.
  const extra = `usability_test_extra_${randomBytes(4).toString('hex')}`;
  let client: pg.Client;
  before(async () => {
    client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
  });
  after(async () => {
    await client.query(`drop role if exists ${extra}`);
    await client.end();
  });

  const membershipsOf = async (role: string): Promise<string[]> => {
    const { rows } = await client.query<{ rolname: string }>(
      `select g.rolname from pg_auth_members m join pg_roles g on g.oid = m.roleid
       join pg_roles r on r.oid = m.member where r.rolname = $1 order by g.rolname`,
      [role],
    );
    return rows.map((row) => row.rolname);
  };

  it('a role granted to usability_service by hand is revoked when the migration runs', async () => {
    await client.query(`create role ${extra} nologin`);
    await client.query(`grant ${extra} to ${SERVICE_LOGIN_ROLE}`);
    assert.ok((await membershipsOf(SERVICE_LOGIN_ROLE)).includes(extra));
    // The migration is written to run again (every database of the cluster runs it).
    await client.query(await readFile(MIGRATION, 'utf8'));
    assert.deepEqual(await membershipsOf(SERVICE_LOGIN_ROLE), ['usability_app', 'usability_system']);
  });
});
