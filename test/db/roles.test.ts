import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { pino } from 'pino';
import { createApi, type Api } from '../../api/app.ts';
import { connectDatabase, type DatabaseHandle, type Db } from '../../db/connection.ts';
import { asSystem, asUser, type Tx } from '../../db/doors.ts';
import { createPasswordUser } from '../auth/helpers.ts';
import { testConfig } from '../support/config.ts';
import { testDatabase } from '../support/database.ts';
import { temporalEnvironment } from '../support/temporal.ts';

interface RoleRow {
  rolname: string;
  rolsuper: boolean;
  rolbypassrls: boolean;
  rolcanlogin: boolean;
  rolinherit: boolean;
  rolcreatedb: boolean;
  rolcreaterole: boolean;
}

const ROLES_MIGRATION = new URL('../../db/migrations/0016_roles.sql', import.meta.url);
const DOORS_AND_LOGIN = ['usability_app', 'usability_service', 'usability_system'];
const EXPECTED: readonly RoleRow[] = [
  // The user door: row-level security applies.
  { rolname: 'usability_app', rolsuper: false, rolbypassrls: false, rolcanlogin: false },
  // The service's login: holds nothing outside a door.
  { rolname: 'usability_service', rolsuper: false, rolbypassrls: false, rolcanlogin: true },
  // The system door: bypasses row-level security without being a superuser.
  { rolname: 'usability_system', rolsuper: false, rolbypassrls: true, rolcanlogin: false },
].map((role) => ({ ...role, rolinherit: false, rolcreatedb: false, rolcreaterole: false }));

function roles(db: Db | Tx) {
  return sql<RoleRow>`
    select rolname, rolsuper, rolbypassrls, rolcanlogin, rolinherit, rolcreatedb, rolcreaterole
    from pg_roles where rolname = any(${DOORS_AND_LOGIN}) order by rolname`
    .execute(db)
    .then((result) => result.rows);
}

const CLAIMS = { sub: '00000000-0000-4000-8000-000000000001', role: 'tester' as const };

describe('database roles: the two doors and the service login (db/migrations/0016_roles.sql)', () => {
  it('the user door has neither SUPERUSER nor BYPASSRLS; the system door has BYPASSRLS only; neither logs in', async () => {
    assert.deepEqual(await roles(testDatabase()), EXPECTED);
  });

  it('re-asserts the attributes when an earlier database (or a hand) left them wrong', async () => {
    // Roles are cluster-wide: the change stays inside this transaction, which is always rolled back.
    const tx = await testDatabase().startTransaction().execute();
    try {
      await sql`alter role usability_app bypassrls inherit createdb`.execute(tx);
      await sql`alter role usability_system login createrole`.execute(tx);
      await sql`alter role usability_service bypassrls`.execute(tx);
      assert.notDeepEqual(await roles(tx), EXPECTED);
      await sql.raw(await readFile(ROLES_MIGRATION, 'utf8')).execute(tx);
      assert.deepEqual(await roles(tx), EXPECTED);
    } finally {
      await tx.rollback().execute();
    }
  });

  it('the door roles belong to no role; the service login belongs to the two doors only', async () => {
    const { rows } = await sql<{ member: string; of: string }>`
      select r.rolname as member, g.rolname as of from pg_auth_members m
      join pg_roles r on r.oid = m.member join pg_roles g on g.oid = m.roleid
      where r.rolname = any(${DOORS_AND_LOGIN}) order by 1, 2`.execute(testDatabase());
    assert.deepEqual(rows, [
      { member: 'usability_service', of: 'usability_app' },
      { member: 'usability_service', of: 'usability_system' },
    ]);
  });

  it('inside asUser the current user is usability_app, inside asSystem usability_system', async () => {
    const who = () => sql<{ name: string }>`select current_user as name`;
    const asUserName = await asUser(testDatabase(), CLAIMS, async (tx) => (await who().execute(tx)).rows[0]);
    const asSystemName = await asSystem(testDatabase(), async (tx) => (await who().execute(tx)).rows[0]);
    assert.deepEqual([asUserName?.name, asSystemName?.name], ['usability_app', 'usability_system']);
  });

  it('no SECURITY DEFINER function runs as a superuser (app.has_session_on runs as the system door)', async () => {
    const { rows } = await sql<{ fn: string; owner: string; superuser: boolean }>`
      select p.oid::regprocedure::text as fn, r.rolname as owner, r.rolsuper as superuser
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_roles r on r.oid = p.proowner
      where p.prosecdef and n.nspname in ('app', 'public') order by 1`.execute(testDatabase());
    assert.deepEqual(
      rows.filter((row) => row.superuser),
      [],
    );
    assert.deepEqual(
      rows.find((row) => row.fn === 'app.has_session_on(uuid)'),
      { fn: 'app.has_session_on(uuid)', owner: 'usability_system', superuser: false },
    );
  });

  describe('the service login (what the API and the worker connect as)', () => {
    let service: DatabaseHandle;
    let api: Api | undefined;
    before(() => {
      service = connectDatabase(testConfig().database.serviceUrl, { poolSize: 2 });
    });
    after(async () => {
      await api?.stop();
      await service.close();
    });

    it('logs in as usability_service, a role that is no superuser', async () => {
      const { rows } = await sql<{ session: string; superuser: string }>`
        select session_user as session, current_setting('is_superuser') as superuser`.execute(service.db);
      assert.deepEqual(rows, [{ session: 'usability_service', superuser: 'off' }]);
    });

    it('reaches no table outside the doors, and cannot become another role', async () => {
      await assert.rejects(sql`select count(*) from users`.execute(service.db), { code: '42501' });
      await assert.rejects(
        service.db.transaction().execute((tx) => sql`set local role postgres`.execute(tx)),
        { code: '42501' },
      );
    });

    it('enters both doors: the user door under row-level security, the system door past it', async () => {
      const user = await createPasswordUser('tester');
      const claims = { sub: user.id, role: 'tester' as const };
      const visibleToUser = await asUser(service.db, claims, (tx) =>
        tx.selectFrom('users').select('id').execute(),
      );
      assert.deepEqual(visibleToUser, [{ id: user.id }]);
      const visibleToSystem = await asSystem(service.db, (tx) =>
        tx.selectFrom('users').select('id').where('id', '=', user.id).execute(),
      );
      assert.deepEqual(visibleToSystem, [{ id: user.id }]);
    });

    it('serves the API: password login and /api/auth/me over the service login', async () => {
      const config = testConfig();
      api = createApi({
        config,
        db: service.db,
        temporal: (await temporalEnvironment()).client,
        logger: pino({ level: 'silent' }),
      });
      const url = await api.listen(0, '127.0.0.1');
      const user = await createPasswordUser('business');
      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      assert.equal(login.status, 200);
      const { data } = (await login.json()) as { data: { sessionToken: string } };
      const me = await fetch(`${url}/api/auth/me`, {
        headers: { Authorization: `Bearer ${data.sessionToken}` },
      });
      assert.equal(me.status, 200);
      assert.equal(((await me.json()) as { data: { id: string } }).data.id, user.id);
    });
  });
});
