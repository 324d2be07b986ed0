import { connectDatabase, type DatabaseHandle } from '../../db/connection.ts';
import { testConfig } from './config.ts';

let owner: DatabaseHandle | undefined;
let service: DatabaseHandle | undefined;

/** The run's migrated database (created by scripts/test.ts), as its owner. */
export function testDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/**
 * The run's database as its owner: for fixtures, assertions and activities called directly. The
 * API and the workers under test use `serviceDatabase()`, as in production.
 */
export function testDatabase() {
  owner ??= connectDatabase(testDatabaseUrl());
  return owner.db;
}

/** The service login (`usability_service`) of the run's database, as the configuration derives it. */
export function serviceDatabaseUrl(): string {
  return testConfig().database.serviceUrl;
}

/**
 * The run's database as the API and the worker log in to it: `usability_service`, which holds no
 * privilege outside the two doors of db/doors.ts, so a query that bypasses them fails here as it
 * would in production.
 */
export function serviceDatabase() {
  service ??= connectDatabase(serviceDatabaseUrl());
  return service.db;
}

export async function closeTestDatabase() {
  await service?.close();
  service = undefined;
  await owner?.close();
  owner = undefined;
}
