import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Claims } from '../../db/doors.ts';
import { asSystem } from '../../db/doors.ts';
import { listStudies } from '../../db/repositories/studies.ts';
import { insertStudy } from '../auth/helpers.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';

const OTHER_STUDIES = 30;

/**
 * The caller's list through the user door's own settings, and how many times the studies policy
 * asked `app.has_session_on` (the per-row question that can use no index) while making it.
 */
async function listCounted(caller: Claims) {
  return testDatabase()
    .transaction()
    .execute(async (tx) => {
      await sql`set local track_functions = 'all'`.execute(tx);
      await sql`select set_config('request.jwt.claims', ${JSON.stringify(caller)}, true),
        set_config('role', 'usability_app', true)`.execute(tx);
      const listed = await listStudies(tx, { limit: 20, offset: 0 }, caller);
      const { rows } = await sql<{ calls: string | null }>`select pg_stat_get_xact_function_calls(
        'app.has_session_on(uuid)'::regprocedure) as calls`.execute(tx);
      return {
        ids: listed.rows.map((row) => row.id).sort(),
        total: listed.total,
        policyCalls: Number(rows[0]?.calls ?? 0),
      };
    });
}

describe("a study list goes through the caller's own studies, not every study", () => {
  let others: string[];
  before(async () => {
    const other = await createBusiness('free');
    others = [];
    for (let index = 0; index < OTHER_STUDIES; index += 1)
      others.push(await insertStudy(other.organizationId));
  });

  it("a business's list and count ask the session question of none of the other organizations' studies", async () => {
    const business = await createBusiness('free');
    const own = [await insertStudy(business.organizationId), await insertStudy(business.organizationId)];
    const { ids, total, policyCalls } = await listCounted(business.claims);
    assert.deepEqual(ids, [...own].sort());
    assert.equal(total, 2);
    assert.ok(policyCalls <= 2 * own.length, `has_session_on was asked ${policyCalls} times`);
  });

  it("a tester's list and count ask it only of the studies the tester has sessions on", async () => {
    const tester = await createTester();
    const owner = await createBusiness('free');
    const [withSession, cancelled] = [
      await insertStudy(owner.organizationId),
      await insertStudy(owner.organizationId),
    ];
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('sessions')
        .values([
          {
            organization_id: owner.organizationId,
            study_id: withSession,
            tester_id: tester.sub,
            status: 'active',
          },
          {
            organization_id: owner.organizationId,
            study_id: cancelled,
            tester_id: tester.sub,
            status: 'cancelled',
            cancelled_at: new Date(),
          },
        ])
        .execute(),
    );
    const { ids, total, policyCalls } = await listCounted(tester);
    assert.deepEqual(ids, [withSession]);
    assert.equal(total, 1);
    assert.ok(policyCalls <= 2 * 2, `has_session_on was asked ${policyCalls} times`);
  });

  it('an admin still lists every study', async () => {
    const { total } = await listCounted({ sub: '00000000-0000-4000-8000-000000000001', role: 'admin' });
    assert.ok(total >= OTHER_STUDIES);
    assert.ok(others.length === OTHER_STUDIES);
  });
});
