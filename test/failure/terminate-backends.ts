import { sql } from 'kysely';
import { serviceDatabaseUrl, testDatabase } from '../support/database.ts';

/**
 * Ends every connection the service login holds to the run's database, as a failover or an
 * administrator would: whatever the API and the workers were doing on them fails mid-flight.
 */
export async function terminateServiceBackends(): Promise<number> {
  const { username, pathname } = new URL(serviceDatabaseUrl());
  const { rows } = await sql<{ ended: boolean }>`
    select pg_terminate_backend(pid) as ended from pg_stat_activity
    where usename = ${decodeURIComponent(username)} and datname = ${pathname.slice(1)}`.execute(
    testDatabase(),
  );
  return rows.filter((row) => row.ended).length;
}
