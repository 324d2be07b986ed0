import { sql, type Kysely } from 'kysely';

/** One way a table falls short of "RLS enabled and forced, with all four policies". */
export interface RlsProblem {
  /** `schema.table` */
  readonly table: string;
  readonly problem: string;
}

export interface RlsCheckOptions {
  /** Schemas to inspect; by default every schema but PostgreSQL's own. */
  readonly schemas?: readonly string[];
  /** `schema.table` names left out on purpose; by default only the migration runner's bookkeeping. */
  readonly exempt?: readonly string[];
}

// The runner's table holds no user data and no application role may touch it (0009 revokes it).
export const DEFAULT_EXEMPT = ['public.schema_migrations'] as const;

const COMMANDS = [
  ['r', 'select'],
  ['a', 'insert'],
  ['w', 'update'],
  ['d', 'delete'],
] as const;

interface TableRow {
  schema: string;
  name: string;
  enabled: boolean;
  forced: boolean;
  commands: string[];
}

/**
 * Inspects pg_catalog and returns every table without row-level security, without FORCE, or
 * without a permissive select, insert, update and delete policy that applies to the user door's
 * role. A `for all` policy does not stand in for the four: each command must be decided on its own.
 */
export async function checkRowLevelSecurity<DB>(
  db: Kysely<DB>,
  options: RlsCheckOptions = {},
): Promise<RlsProblem[]> {
  const exempt = new Set<string>(options.exempt ?? DEFAULT_EXEMPT);
  const schemaFilter = options.schemas
    ? sql`n.nspname = any(${[...options.schemas]}::text[])`
    : sql`n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;
  const { rows } = await sql<TableRow>`
    select n.nspname as schema, c.relname as name,
      c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
      coalesce(array_agg(distinct p.polcmd::text) filter (
        where p.polpermissive
          and (p.polroles = '{0}' or exists (
            select 1 from pg_roles r where r.rolname = 'usability_app' and r.oid = any(p.polroles)))
      ), '{}') as commands
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_policy p on p.polrelid = c.oid
    where c.relkind in ('r', 'p') and ${schemaFilter}
    group by n.nspname, c.relname, c.relrowsecurity, c.relforcerowsecurity
    order by n.nspname, c.relname`.execute(db);

  const problems: RlsProblem[] = [];
  for (const row of rows) {
    const table = `${row.schema}.${row.name}`;
    if (exempt.has(table)) continue;
    if (!row.enabled) problems.push({ table, problem: 'row-level security is not enabled' });
    if (!row.forced) problems.push({ table, problem: 'row-level security is not forced' });
    for (const [code, command] of COMMANDS) {
      if (!row.commands.includes(code)) problems.push({ table, problem: `no ${command} policy` });
    }
  }
  return problems;
}

/** One line per problem, for scripts and assertion messages. */
export function describeRlsProblems(problems: readonly RlsProblem[]): string {
  return problems.map(({ table, problem }) => `${table}: ${problem}`).join('\n');
}
