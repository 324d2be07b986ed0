import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: Db;
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly poolSize?: number;
  /**
   * Told when an idle connection breaks (the server restarted, a backend was terminated). The pool
   * has already dropped it and opens a new one when next asked; without a listener the 'error'
   * event would end the process.
   */
  readonly log?: { warn(details: { err: Error }, message: string): void };
}

/** How long a query waits for a connection before failing, so an unreachable server answers 503, not a hang. */
const CONNECTION_TIMEOUT_MS = 5000;

export function connectDatabase(url: string, options: ConnectOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
  });
  pool.on('error', (error) =>
    options.log?.warn({ err: error }, 'database connection lost; the pool opens a new one'),
  );
  // A connection that breaks while lent out fails its query, which its caller sees; the client
  // also emits 'error', which with no listener would end the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, close: () => db.destroy() };
}
