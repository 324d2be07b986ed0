import { sql, type InsertQueryBuilder, type InsertResult } from 'kysely';
import type { Claims, Tx } from '../../../db/doors.ts';
import type { Database } from '../../../db/schema.ts';
import type { Fixtures } from './fixtures.ts';

/** The five actors of issue 3's matrix. */
export const ACTORS = ['businessA', 'businessB', 'testerWith', 'testerWithout', 'admin'] as const;
export type Actor = (typeof ACTORS)[number];

export const ACTOR_LABELS: Readonly<Record<Actor, string>> = {
  businessA: 'business of A',
  businessB: 'business of B',
  testerWith: 'tester with a session',
  testerWithout: 'tester without a session',
  admin: 'admin',
};

export type Operation = 'select' | 'insert' | 'update' | 'delete';

/** The actors a cell allows; every other actor is expected to be denied. */
export type Allowed = readonly Actor[];

export type TableName = keyof Database;

/** One fixture row of a table and who may see, change and remove it. */
export interface RowCells {
  /** Names the row in failure messages when a table has more than one. */
  readonly label?: string;
  readonly key: (fixtures: Fixtures) => Readonly<Record<string, string>>;
  /** The column of the no-op update (`set c = c`); one that no trigger watches. */
  readonly touch: string;
  readonly select: Allowed;
  readonly update: Allowed;
  readonly delete: Allowed;
}

export interface TableCells {
  readonly table: TableName;
  /** The rule the table's cells guard, quoted in the test name. */
  readonly rule: string;
  readonly rows: readonly RowCells[];
  readonly insert: {
    readonly allowed: Allowed;
    /** Inserts a fresh row of A's side; `actor` is the caller, for rows written under one's own id. */
    readonly run: (tx: Tx, fixtures: Fixtures, actor: Claims) => Promise<unknown>;
  };
}

/** An insert into one table, its values still to be given. */
export type InsertInto<T extends TableName> = InsertQueryBuilder<Database, T, InsertResult>;

/**
 * A table's cells whose insert is handed the insert into that table (checked against its columns),
 * so no entry names its table twice or could insert into another.
 */
export function tableCells<T extends TableName>(cells: {
  readonly table: T;
  readonly rule: string;
  readonly rows: readonly RowCells[];
  readonly insert: {
    readonly allowed: Allowed;
    /** A fresh row of A's side; `actor` is the caller, for rows written under one's own id. */
    readonly row: (into: InsertInto<NoInfer<T>>, fixtures: Fixtures, actor: Claims) => InsertInto<NoInfer<T>>;
  };
}): TableCells {
  const { table, rule, rows, insert } = cells;
  return {
    table,
    rule,
    rows,
    insert: {
      allowed: insert.allowed,
      run: (tx, fixtures, actor) => insert.row(tx.insertInto(table), fixtures, actor).execute(),
    },
  };
}

/** What one actor could do in one cell. */
export interface Outcome {
  readonly subject: string;
  readonly actor: Actor;
  readonly operation: Operation;
  readonly expected: boolean;
  /** true allowed, false denied; a string is an unexpected error (a broken fixture, not a verdict). */
  readonly actual: boolean | string;
}

interface PgError {
  readonly code?: string;
  readonly message?: string;
  readonly constraint?: string;
}

const RLS_DENIED = '42501';
const FOREIGN_KEY_VIOLATION = '23503';
const CHECK_VIOLATION = '23514';

/**
 * Runs `statement` as `claims` exactly as db/doors.ts asUser does, inside a savepoint that is
 * always rolled back: the attempt leaves no row behind and the claims and role end with it.
 */
export async function attempt(
  tx: Tx,
  claims: Claims,
  operation: Operation,
  statement: () => Promise<boolean>,
): Promise<boolean | string> {
  // One round trip: without bound parameters pg sends the three statements as one simple query.
  await sql`savepoint rls_cell; select set_config('request.jwt.claims', ${sql.lit(JSON.stringify(claims))}, true); set local role usability_app`.execute(
    tx,
  );
  try {
    return await statement();
  } catch (error) {
    const { code, message, constraint } = error as PgError;
    if (code === RLS_DENIED) return false;
    // A trigger's refusal (a check violation that names no constraint): the reports gate runs
    // before the policies and, reading sessions as the caller, refuses rows the caller cannot see;
    // a study's tasks refuse every change once it has sessions.
    if (code === CHECK_VIOLATION && constraint === undefined) return false;
    // A restricting foreign key fires only for a row that was actually deleted, so the policies
    // let the actor through; the row survives for another reason than row-level security.
    if (operation === 'delete' && code === FOREIGN_KEY_VIOLATION) return true;
    return `error ${code ?? '?'}: ${message ?? String(error)}`;
  } finally {
    await sql`rollback to savepoint rls_cell`.execute(tx);
  }
}

function whereKey(key: Readonly<Record<string, string>>) {
  return sql.join(
    Object.entries(key).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
    sql` and `,
  );
}

function subjectOf(cells: TableCells, row?: RowCells): string {
  return row?.label ? `${cells.table} (${row.label})` : cells.table;
}

/** Every cell of one table, each attempted by each actor; the caller owns the transaction. */
export async function runTableCells(tx: Tx, cells: TableCells, fixtures: Fixtures): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const table = sql.table(cells.table);
  for (const actor of ACTORS) {
    const claims = fixtures.actors[actor];
    const record = (subject: string, operation: Operation, allowed: Allowed, actual: boolean | string) =>
      outcomes.push({ subject, actor, operation, expected: allowed.includes(actor), actual });

    for (const row of cells.rows) {
      const where = whereKey(row.key(fixtures));
      const subject = subjectOf(cells, row);
      record(
        subject,
        'select',
        row.select,
        await attempt(tx, claims, 'select', async () => {
          const { rows } = await sql<{
            n: number;
          }>`select count(*)::int as n from ${table} where ${where}`.execute(tx);
          return rows[0]?.n === 1;
        }),
      );
      const touch = sql.ref(row.touch);
      record(
        subject,
        'update',
        row.update,
        await attempt(tx, claims, 'update', async () => {
          const result = await sql`update ${table} set ${touch} = ${touch} where ${where}`.execute(tx);
          return result.numAffectedRows === 1n;
        }),
      );
      record(
        subject,
        'delete',
        row.delete,
        await attempt(tx, claims, 'delete', async () => {
          const result = await sql`delete from ${table} where ${where}`.execute(tx);
          return result.numAffectedRows === 1n;
        }),
      );
    }
    record(
      cells.table,
      'insert',
      cells.insert.allowed,
      await attempt(tx, claims, 'insert', async () => {
        await cells.insert.run(tx, fixtures, claims);
        return true;
      }),
    );
  }
  return outcomes;
}

/** Cells whose outcome is not the expected one: a leak, a lockout or a broken fixture. */
export function wrongCells(outcomes: readonly Outcome[]): string[] {
  return outcomes
    .filter((outcome) => outcome.actual !== outcome.expected)
    .map(({ subject, actor, operation, expected, actual }) => {
      const verdict =
        typeof actual === 'string'
          ? `could not ${operation}: ${actual}`
          : `may${actual ? '' : ' not'} ${operation}`;
      return `${subject}: ${ACTOR_LABELS[actor]} ${verdict} (expected ${expected ? 'allowed' : 'denied'})`;
    });
}
