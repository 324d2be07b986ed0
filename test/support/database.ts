import { connectDatabase, type DatabaseHandle } from '../../db/connection.ts';

let handle: DatabaseHandle | undefined;

/** The run's migrated database (created by scripts/test.ts), as its owner. */
export function testDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** The shared handle on the run's migrated database. */
export function testDatabase() {
  handle ??= connectDatabase(testDatabaseUrl());
  return handle.db;
}

export async function closeTestDatabase() {
  await handle?.close();
  handle = undefined;
}
