import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { verifyPassword, hashPassword } from '../../api/auth/password-hash.ts';
import { connectDatabase, type DatabaseHandle } from '../../db/connection.ts';
import { dropDatabase, ensureDatabase, migrate } from '../../db/migrate.ts';
import { SEED_ADMIN, SEED_ORGANIZATIONS, SEED_PASSWORD } from '../../db/seed/seed-data.ts';
import { seedDatabase } from '../../db/seed/seed.ts';

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
    handle = connectDatabase(url, 2);
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

  it('is deterministic: running it again changes no row', async () => {
    const snapshot = () =>
      values(
        `select concat_ws('|', u.email, u.role, u.display_name, p.country, p.birth_year, p.devices, p.languages,
                p.access_needs, p.assistive_technologies, p.status, p.quiz_score) as v
         from users u left join tester_profiles p on p.user_id = u.id order by u.email`,
      );
    const before = await snapshot();
    await seedDatabase(handle.db, await hashPassword(SEED_PASSWORD));
    assert.deepEqual(await snapshot(), before);
    assert.equal(await count(`select count(*) as n from organizations`), 2);
    assert.equal(await count(`select count(*) as n from quizzes`), 1);
  });
});
