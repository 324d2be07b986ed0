import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK = 727_001;

export interface MigrationResult {
  readonly applied: string[];
  readonly skipped: string[];
}

/**
 * Applies every `db/migrations/*.sql` not yet recorded, each in its own transaction, in name
 * order. An advisory lock serialises concurrent runners; a changed file that was already applied
 * is refused rather than silently ignored.
 */
export async function migrate(databaseUrl: string): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`create table if not exists schema_migrations (
      name text primary key, checksum char(64) not null, applied_at timestamptz not null default now())`);
    const done = new Map(
      (
        await client.query<{ name: string; checksum: string }>('select name, checksum from schema_migrations')
      ).rows.map((row) => [row.name, row.checksum]),
    );
    const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
    const result: MigrationResult = { applied: [], skipped: [] };
    for (const file of files) {
      const text = await readFile(MIGRATIONS_DIR + file, 'utf8');
      const checksum = createHash('sha256').update(text).digest('hex');
      const recorded = done.get(file);
      if (recorded !== undefined) {
        if (recorded !== checksum) throw new Error(`Migration ${file} changed after it was applied`);
        result.skipped.push(file);
        continue;
      }
      await client.query('begin');
      try {
        await client.query(text);
        await client.query('insert into schema_migrations (name, checksum) values ($1, $2)', [
          file,
          checksum,
        ]);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      result.applied.push(file);
    }
    return result;
  } finally {
    await client.end();
  }
}

/**
 * Gives the service login (0016) the password its URL carries, as the owner. Servers that require
 * passwords (docker-compose's PostgreSQL) need one; with trust authentication the URL carries none
 * and nothing is changed. A URL naming another role is the operator's own login: left alone.
 */
export async function setServiceLoginPassword(
  ownerUrl: string,
  serviceUrl: string,
  serviceRole: string,
): Promise<boolean> {
  const url = new URL(serviceUrl);
  const password = decodeURIComponent(url.password);
  if (!password || decodeURIComponent(url.username) !== serviceRole) return false;
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    // ALTER ROLE takes no bind parameters: the literal is escaped by the driver.
    await client.query(
      `alter role ${pg.escapeIdentifier(serviceRole)} password ${client.escapeLiteral(password)}`,
    );
    return true;
  } finally {
    await client.end();
  }
}

/** Creates the database named in `databaseUrl` when it does not exist yet. */
export function ensureDatabase(databaseUrl: string): Promise<boolean> {
  return onMaintenanceDatabase(databaseUrl, async (admin, name) => {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return false;
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
    return true;
  });
}

/**
 * Runs `use` on a connection to the server's `postgres` database with the name of the database
 * `databaseUrl` names: a database cannot be created or dropped from a connection to itself.
 */
async function onMaintenanceDatabase<T>(
  databaseUrl: string,
  use: (admin: pg.Client, name: string) => Promise<T>,
): Promise<T> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    return await use(admin, name);
  } finally {
    await admin.end();
  }
}

/** Drops the database named in `databaseUrl`, ending its connections first. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  await onMaintenanceDatabase(databaseUrl, (admin, name) =>
    admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`),
  );
}
