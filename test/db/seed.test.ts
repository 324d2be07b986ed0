import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { verifyPassword, hashPassword } from '../../api/auth/password-hash.ts';
import { connectDatabase, type DatabaseHandle } from '../../db/connection.ts';
import { dropDatabase, ensureDatabase, migrate } from '../../db/migrate.ts';
import { pino } from 'pino';
import { createApi } from '../../api/app.ts';
import { asUser } from '../../db/doors.ts';
import { DEMO_SESSIONS, DEMO_STUDY } from '../../db/seed/demo-study-data.ts';
import { SEED_ADMIN, SEED_ORGANIZATIONS, SEED_PASSWORD } from '../../db/seed/seed-data.ts';
import { seedDatabase } from '../../db/seed/seed.ts';
import { testConfig } from '../support/config.ts';
import { temporalEnvironment } from '../support/temporal.ts';

// The seed runs in a database of its own so that its rows never mix with the suite's fixtures.
describe('npm run seed (db/seed)', () => {
  let url: string;
  let handle: DatabaseHandle;

  const count = async (query: string): Promise<number> => {
    const { rows } = await sql<{ n: string }>`${sql.raw(query)}`.execute(handle.db);
    return Number(rows[0]!.n);
  };
  const values = async (query: string): Promise<string[]> => {
    const { rows } = await sql<{ v: string }>`${sql.raw(query)}`.execute(handle.db);
    return rows.map((row) => row.v);
  };

  before(async () => {
    const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    base.pathname = `${base.pathname}_seed`;
    url = base.toString();
    await dropDatabase(url);
    await ensureDatabase(url);
    await migrate(url);
    handle = connectDatabase(url, { poolSize: 2 });
    await seedDatabase(handle.db, await hashPassword(SEED_PASSWORD));
  });
  after(async () => {
    await handle.close();
    await dropDatabase(url);
  });

  it('loads two organizations, one free and one pro, each with its business users', async () => {
    assert.deepEqual(await values('select plan as v from organizations order by plan'), ['free', 'pro']);
    for (const organization of SEED_ORGANIZATIONS) {
      const members = await count(
        `select count(*) as n from organization_memberships m join organizations o on o.id = m.organization_id
         join users u on u.id = m.user_id where o.name = '${organization.name}' and u.role = 'business'`,
      );
      assert.equal(members, organization.users.length, organization.name);
    }
  });

  it('loads 40 or more testers across at least 8 countries, on all three devices, in several languages', async () => {
    assert.ok((await count(`select count(*) as n from tester_profiles`)) >= 40);
    assert.ok((await count(`select count(distinct country) as n from tester_profiles`)) >= 8);
    assert.deepEqual(await values(`select distinct unnest(devices) as v from tester_profiles order by 1`), [
      'desktop',
      'mobile',
      'tablet',
    ]);
    assert.ok((await count(`select count(distinct l) as n from tester_profiles, unnest(languages) l`)) >= 5);
    assert.ok((await count(`select count(distinct birth_year / 10) as n from tester_profiles`)) >= 4);
  });

  it('covers screen-reader users and keyboard-only, low-vision and cognitive access needs', async () => {
    const needs = await values(`select distinct unnest(access_needs) as v from tester_profiles`);
    for (const need of ['keyboard_only', 'low_vision', 'cognitive']) assert.ok(needs.includes(need), need);
    const technologies = await values(
      `select distinct unnest(assistive_technologies) as v from tester_profiles`,
    );
    assert.ok(technologies.includes('screen_reader'));
  });

  it('publishes a quiz with its questions, and testers who took it carry its result', async () => {
    assert.equal(await count(`select count(*) as n from quizzes where version = 1`), 1);
    assert.ok((await count(`select count(*) as n from quiz_questions`)) >= 5);
    assert.ok((await count(`select count(*) as n from tester_profiles where quiz_id is not null`)) > 0);
    assert.deepEqual(await values(`select distinct status as v from tester_profiles order by 1`), [
      'active',
      'pending',
      'suspended',
    ]);
  });

  it('every seeded account logs in with the documented demo password', async () => {
    const { rows } = await sql<{ password_hash: string }>`
      select password_hash from users where email = ${SEED_ADMIN.email} and role = 'admin'`.execute(
      handle.db,
    );
    assert.equal(rows.length, 1);
    assert.ok(await verifyPassword(SEED_PASSWORD, rows[0]!.password_hash));
    assert.equal(await count(`select count(*) as n from users where password_hash is null`), 0);
  });

  it('suspends the accounts of suspended testers too, so they cannot log in (403)', async () => {
    const suspended = await values(
      `select u.email || ' ' || u.status as v from users u join tester_profiles p on p.user_id = u.id
       where p.status = 'suspended' order by 1`,
    );
    assert.ok(suspended.length > 0);
    assert.deepEqual(
      suspended,
      suspended.map((line) => `${line.split(' ')[0]} suspended`),
    );
    const api = createApi({
      config: testConfig({ DATABASE_URL: url }),
      db: handle.db,
      temporal: (await temporalEnvironment()).client,
      logger: pino({ level: 'silent' }),
    });
    const base = await api.listen(0, '127.0.0.1');
    try {
      const login = (email: string) =>
        fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: SEED_PASSWORD }),
        });
      assert.equal((await login(suspended[0]!.split(' ')[0]!)).status, 403);
      assert.equal((await login(DEMO_SESSIONS[0]!.testerEmail)).status, 200);
    } finally {
      await api.stop();
    }
  });

  it('loads one active study of the pro organization with confirmed sessions, their findings and reports', async () => {
    const [owner] = await values(`select id as v from users where email = '${DEMO_STUDY.createdByEmail}'`);
    const [organization] = await values(
      `select id as v from organizations where name = '${DEMO_STUDY.organizationName}'`,
    );
    // What the organization sees through the user door: row-level security applies.
    const seen = await asUser(
      handle.db,
      { sub: owner!, role: 'business', organization_id: organization! },
      async (tx) => ({
        studies: await tx.selectFrom('studies').select(['id', 'status', 'notes_confirmed']).execute(),
        sessions: await tx
          .selectFrom('sessions')
          .select(['status', 'rating'])
          .orderBy('started_at')
          .execute(),
        reports: await tx.selectFrom('reports').select(['content']).execute(),
        payments: await tx.selectFrom('payments').select('status').execute(),
      }),
    );
    assert.deepEqual(
      seen.studies.map(({ status, notes_confirmed }) => ({ status, notes_confirmed })),
      [{ status: 'active', notes_confirmed: true }],
    );
    assert.deepEqual(
      seen.sessions,
      DEMO_SESSIONS.map((session) => ({ status: 'confirmed', rating: session.rating })),
    );
    assert.equal(seen.reports.length, DEMO_SESSIONS.length);
    assert.equal(seen.payments.length, DEMO_SESSIONS.length);
    // Rejected findings never reach a report.
    const reported = seen.reports.flatMap(
      (report) => (report.content as { findings: { description: string }[] }).findings,
    );
    const confirmed = DEMO_SESSIONS.flatMap((session) =>
      session.findings.filter((finding) => finding.decision === 'confirmed'),
    );
    assert.equal(reported.length, confirmed.length);
    assert.ok(reported.every((finding) => !finding.description.includes('connection was slow')));
  });

  it('is deterministic: running it again changes no row of any table', async () => {
    const snapshot = async () => {
      const tables = await values(
        `select table_name as v from information_schema.tables
         where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'
         order by 1`,
      );
      const rows = new Map<string, string[]>();
      for (const table of tables) {
        rows.set(table, await values(`select to_jsonb(t)::text as v from ${table} t order by 1`));
      }
      return rows;
    };
    const before = await snapshot();
    await seedDatabase(handle.db, await hashPassword(SEED_PASSWORD));
    assert.deepEqual(await snapshot(), before);
    assert.equal(await count(`select count(*) as n from organizations`), 2);
    assert.equal(await count(`select count(*) as n from quizzes`), 1);
    assert.equal(await count(`select count(*) as n from studies`), 1);
    assert.equal(await count(`select count(*) as n from sessions`), DEMO_SESSIONS.length);
  });
});
