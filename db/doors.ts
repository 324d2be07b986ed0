import { sql, type Transaction } from 'kysely';
import type { Db } from './connection.ts';
import type { Database } from './schema.ts';
import type { UserRole } from '../lib/domain.ts';

/** The JWT claims that drive row-level security. */
export interface Claims {
  readonly sub: string;
  readonly role: UserRole;
  readonly organization_id?: string | null;
}

export type Tx = Transaction<Database>;

/**
 * The user door: runs `work` in a transaction as `usability_app` (no BYPASSRLS) with the caller's
 * claims set for this transaction only, so every row it touches passes the policies.
 */
export function asUser<T>(db: Db, claims: Claims, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    // One round trip: set_config('role', ..., true) is SET LOCAL ROLE (the same check of membership).
    await sql`select set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
      set_config('role', 'usability_app', true)`.execute(tx);
    return work(tx);
  });
}

/**
 * The system door: for work that spans organizations (webhooks, schedules, Agent 4). Runs as
 * `usability_system`, which bypasses RLS without being a superuser.
 */
export function asSystem<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`select set_config('request.jwt.claims', '', true), set_config('role', 'usability_system', true)`.execute(
      tx,
    );
    return work(tx);
  });
}
