import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { insertStudy } from '../auth/helpers.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';

const MIGRATION = new URL('../../db/migrations/0014_variant_position.sql', import.meta.url);

class RollBack extends Error {}

describe('migration 0014 (study_variants.position)', () => {
  it('numbers variants stored without a position by their labels, study by study', async () => {
    const { organizationId } = await createBusiness('free');
    const [first, second] = [await insertStudy(organizationId), await insertStudy(organizationId)];
    let positions: { study_id: string; label: string; position: number }[] = [];
    // Inside a transaction that is rolled back: the column is made nullable again to stand for rows
    // written before 0014, and the migration's text runs over them.
    await testDatabase()
      .transaction()
      .execute(async (tx) => {
        await sql`alter table study_variants alter column position drop not null`.execute(tx);
        const rows = [
          [first, 'C'],
          [first, 'A'],
          [first, 'B'],
          [second, 'Z'],
          [second, 'Y'],
        ] as const;
        for (const [studyId, label] of rows) {
          await sql`insert into study_variants (study_id, label, description, split_ratio)
                    values (${studyId}, ${label}, '', 0.2)`.execute(tx);
        }
        await sql.raw(await readFile(MIGRATION, 'utf8')).execute(tx);
        positions = await tx
          .selectFrom('study_variants')
          .select(['study_id', 'label', 'position'])
          .where('study_id', 'in', [first, second])
          .orderBy('study_id')
          .orderBy('position')
          .execute();
        throw new RollBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RollBack)) throw error;
      });
    const labelsOf = (studyId: string) =>
      positions.filter((row) => row.study_id === studyId).map((row) => [row.label, row.position]);
    assert.deepEqual(labelsOf(first), [
      ['A', 1],
      ['B', 2],
      ['C', 3],
    ]);
    assert.deepEqual(labelsOf(second), [
      ['Y', 1],
      ['Z', 2],
    ]);
  });
});
