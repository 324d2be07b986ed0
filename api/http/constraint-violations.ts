// Validation is meant to be the database's equal (lib/validation/storable.ts), so the database
// refusing a value is a validation rule missing. It is still the caller's value that was refused:
// a check or not-null violation answers 422 naming the field, never 500 (issue 33, point 2).

import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

const CHECK_VIOLATION = '23514';
const NOT_NULL_VIOLATION = '23502';

/** Columns whose request field is not the column's name in camelCase, by `table.column`. */
const FIELD_OF_COLUMN: Readonly<Record<string, string>> = {
  'studies.compensation_amount': 'compensation.amount',
  'studies.compensation_currency': 'compensation.currency',
  'studies.compensation_type': 'compensation.type',
  'studies.tester_count': 'targeting.testerCount',
  'studies.target_age_min': 'targeting.ageRange.min',
  'studies.target_age_max': 'targeting.ageRange.max',
  'studies.max_duration_minutes': 'settings.maxDurationMinutes',
  'studies.reminder_after_hours': 'settings.reminderAfterHours',
  'study_variants.split_ratio': 'abTest.splitRatio',
};

interface PgError {
  readonly code: string;
  readonly table?: string | undefined;
  readonly column?: string | undefined;
  readonly constraint?: string | undefined;
}

const isPgError = (error: unknown): error is PgError =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { code?: unknown }).code === 'string' &&
  typeof (error as { severity?: unknown }).severity === 'string';

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The request field a column stands for. */
function fieldOf(table: string | undefined, column: string): string {
  return FIELD_OF_COLUMN[`${table ?? ''}.${column}`] ?? camelCase(column);
}

/** The columns a table's constraint covers, in their order in the table (the database's catalog). */
export type ConstraintColumns = (table: string, constraint: string) => Promise<readonly string[]>;

/** Looks constraints up in `db`'s catalog, once each for the life of the process. */
export function constraintColumnsIn(db: Db): ConstraintColumns {
  const known = new Map<string, Promise<readonly string[]>>();
  return (table, constraint) => {
    const key = `${table}.${constraint}`;
    let columns = known.get(key);
    if (!columns) {
      columns = sql<{ attname: string }>`
        select a.attname from pg_constraint c
        join pg_class t on t.oid = c.conrelid
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
        where c.conname = ${constraint} and t.relname = ${table}
        order by a.attnum`
        .execute(db)
        .then((result) => result.rows.map((row) => row.attname));
      // A failed lookup is not kept: the next violation asks again.
      void columns.catch(() => known.delete(key));
      known.set(key, columns);
    }
    return columns;
  };
}

/**
 * The 422 message for a value the database refused, or undefined for any other error. A check
 * names the first column it covers (`constraintColumns`); one the catalog cannot tell names the table.
 */
export async function refusedValueMessage(
  error: unknown,
  constraintColumns: ConstraintColumns | undefined,
): Promise<string | undefined> {
  if (!isPgError(error)) return undefined;
  if (error.code === NOT_NULL_VIOLATION && error.column)
    return `${fieldOf(error.table, error.column)}: Required`;
  if (error.code !== CHECK_VIOLATION) return undefined;
  const columns =
    error.table && error.constraint && constraintColumns
      ? await constraintColumns(error.table, error.constraint).catch(() => [])
      : [];
  const field = columns[0] ? fieldOf(error.table, columns[0]) : (error.table ?? 'body');
  return `${field}: Not a value the service can store (it breaks the rule ${error.constraint ?? 'of its column'})`;
}
