import { connectDatabase, type DatabaseHandle } from '../../db/connection.ts';

let handle: DatabaseHandle | undefined;

/** The shared handle on the run's migrated database (created by scripts/test.ts). */
export function testDatabase() {
  handle ??= connectDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  return handle.db;
}

export async function closeTestDatabase() {
  await handle?.close();
  handle = undefined;
}
