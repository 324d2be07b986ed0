import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { checkRowLevelSecurity, describeRlsProblems } from '../../db/check-rls.ts';
import { testDatabase } from '../support/database.ts';

describe('schema check: row-level security on every table', () => {
  it('every table of the migrated schema has RLS enabled and forced, with select, insert, update and delete policies', async () => {
    const problems = await checkRowLevelSecurity(testDatabase());
    assert.deepEqual(problems, [], describeRlsProblems(problems));
  });

  it('the user door cannot reach the migration runner, the one table outside RLS', async () => {
    const db = testDatabase();
    await assert.rejects(
      db.transaction().execute(async (tx) => {
        await sql`set local role usability_app`.execute(tx);
        await sql`select count(*) from schema_migrations`.execute(tx);
      }),
      /permission denied/,
    );
  });

  describe('on a table created without policies', () => {
    // A throwaway schema, so the suite's real tables are never touched and nothing is left behind.
    const schema = `rls_probe_${randomBytes(4).toString('hex')}`;
    const table = `${schema}.notes`;
    const problemsOf = async () =>
      (await checkRowLevelSecurity(testDatabase())).filter((problem) => problem.table === table);

    before(async () => {
      await sql`create schema ${sql.id(schema)}`.execute(testDatabase());
      await sql`create table ${sql.id(schema, 'notes')} (id integer primary key)`.execute(testDatabase());
    });
    after(async () => {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(testDatabase());
    });

    it('fails naming the table: RLS not enabled, not forced, and each of the four policies missing', async () => {
      assert.deepEqual(
        (await problemsOf()).map((problem) => problem.problem),
        [
          'row-level security is not enabled',
          'row-level security is not forced',
          'no select policy',
          'no insert policy',
          'no update policy',
          'no delete policy',
        ],
      );
    });

    it('a `for all` policy does not count as the four policies', async () => {
      const notes = sql.id(schema, 'notes');
      await sql`alter table ${notes} enable row level security`.execute(testDatabase());
      await sql`alter table ${notes} force row level security`.execute(testDatabase());
      await sql`create policy notes_all on ${notes} for all using (true)`.execute(testDatabase());
      assert.deepEqual(
        (await problemsOf()).map((problem) => problem.problem),
        ['no select policy', 'no insert policy', 'no update policy', 'no delete policy'],
      );
    });

    it('a restrictive policy alone does not count, and four permissive policies pass', async () => {
      const notes = sql.id(schema, 'notes');
      await sql`create policy notes_select on ${notes} as restrictive for select using (true)`.execute(
        testDatabase(),
      );
      assert.ok((await problemsOf()).some((problem) => problem.problem === 'no select policy'));
      await sql`drop policy notes_select on ${notes}`.execute(testDatabase());
      await sql`create policy notes_select on ${notes} for select using (true)`.execute(testDatabase());
      await sql`create policy notes_insert on ${notes} for insert with check (true)`.execute(testDatabase());
      await sql`create policy notes_update on ${notes} for update using (true)`.execute(testDatabase());
      await sql`create policy notes_delete on ${notes} for delete using (true)`.execute(testDatabase());
      assert.deepEqual(await problemsOf(), []);
    });
  });
});
