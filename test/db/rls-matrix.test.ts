import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Tx } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { createFixtures, type Fixtures } from './rls-matrix/fixtures.ts';
import {
  ACTORS,
  ACTOR_LABELS,
  attempt,
  runTableCells,
  wrongCells,
  type Outcome,
  type TableCells,
} from './rls-matrix/matrix.ts';
import { AUDIT_TABLES } from './rls-matrix/tables-audits.ts';
import { AUTH_TABLES } from './rls-matrix/tables-auth.ts';
import { CORE_TABLES } from './rls-matrix/tables-core.ts';
import { ENGAGEMENT_TABLES } from './rls-matrix/tables-engagement.ts';
import { REPORT_TABLES } from './rls-matrix/tables-reports.ts';
import { SESSION_TABLES } from './rls-matrix/tables-sessions.ts';
import { TESTER_TABLES } from './rls-matrix/tables-testers.ts';
import { WEBHOOK_TABLES } from './rls-matrix/tables-webhooks.ts';

const MATRIX: readonly TableCells[] = [
  ...CORE_TABLES,
  ...TESTER_TABLES,
  ...SESSION_TABLES,
  ...REPORT_TABLES,
  ...ENGAGEMENT_TABLES,
  ...AUDIT_TABLES,
  ...AUTH_TABLES,
  ...WEBHOOK_TABLES,
];

/** One transaction per table, always rolled back: the cells inside roll back to their savepoints too. */
async function inRolledBackTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  const tx = await testDatabase().startTransaction().execute();
  try {
    return await work(tx);
  } finally {
    await tx.rollback().execute();
  }
}

/** A verdict that differs from the expectation; an error is not a verdict and proves nothing here. */
const flipped = (outcomes: readonly Outcome[]) =>
  outcomes.filter((outcome) => typeof outcome.actual === 'boolean' && outcome.actual !== outcome.expected);

describe('row-level security matrix: who may select, insert, update and delete which rows', () => {
  let fixtures: Fixtures;

  before(async () => {
    fixtures = await createFixtures(testDatabase());
  });

  it('has an entry for every table of the public schema (a new table without one fails here)', async () => {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> 'schema_migrations'
      order by 1`.execute(testDatabase());
    assert.deepEqual(MATRIX.map((cells) => cells.table).sort(), rows.map((row) => row.name).sort());
  });

  for (const cells of MATRIX) {
    it(cells.rule, async () => {
      const wrong = wrongCells(await inRolledBackTransaction((tx) => runTableCells(tx, cells, fixtures)));
      assert.deepEqual(wrong, [], wrong.join('\n'));
    });
  }

  it("sessions: only the session's tester (or an admin) confirms its findings, never the organization", async () => {
    const opened = await inRolledBackTransaction(async (tx) => {
      // Still the connection's own role here (RLS does not apply): bring the session to the gate.
      for (const status of ['completed', 'analyzing', 'analyzed']) {
        await sql`update sessions set status = ${status} where id = ${fixtures.liveSession}`.execute(tx);
      }
      const verdicts: string[] = [];
      for (const actor of ACTORS) {
        const confirmed = await attempt(tx, fixtures.actors[actor], 'update', async () => {
          const result = await sql`
            update sessions set status = 'confirmed', confirmed_at = now(), notes_confirmed = true,
              notes_confirmed_at = now()
            where id = ${fixtures.liveSession}`.execute(tx);
          return result.numAffectedRows === 1n;
        });
        if (confirmed === true) verdicts.push(ACTOR_LABELS[actor]);
        else if (confirmed !== false) verdicts.push(`${ACTOR_LABELS[actor]}: ${confirmed}`);
      }
      return verdicts;
    });
    assert.deepEqual(opened, [ACTOR_LABELS.testerWith, ACTOR_LABELS.admin]);
  });

  describe('the experiment: dropping any single policy changes at least one cell', () => {
    for (const cells of MATRIX) {
      it(`${cells.table}: the removal of each of its policies is caught by the matrix`, async () => {
        const undetected = await inRolledBackTransaction(async (tx) => {
          const baseline = wrongCells(await runTableCells(tx, cells, fixtures));
          assert.deepEqual(
            baseline,
            [],
            `the matrix must hold before a policy is dropped:\n${baseline.join('\n')}`,
          );
          const { rows: policies } = await sql<{ name: string }>`
            select policyname as name from pg_policies
            where schemaname = 'public' and tablename = ${cells.table} order by policyname`.execute(tx);
          assert.ok(policies.length >= 4, `${cells.table} has ${policies.length} policies`);
          const missed: string[] = [];
          for (const { name } of policies) {
            await sql`savepoint rls_policy`.execute(tx);
            await sql`drop policy ${sql.id(name)} on ${sql.table(cells.table)}`.execute(tx);
            const changed = flipped(await runTableCells(tx, cells, fixtures));
            await sql`rollback to savepoint rls_policy`.execute(tx);
            if (changed.length === 0) missed.push(name);
          }
          return missed;
        });
        assert.deepEqual(undetected, [], `no cell notices the removal of: ${undetected.join(', ')}`);
      });
    }
  });
});
