import { randomBytes, randomInt, randomUUID } from 'node:crypto';

// Values for columns under unique indexes: fixtures and fresh rows never collide with each other
// or with the rows of other suites sharing the run's database.
export const unique = (prefix: string) => `${prefix}-${randomUUID()}`;
export const hex64 = () => randomBytes(32).toString('hex');
export const email = (prefix: string) => `${prefix}-${randomUUID()}@example.com`;
/** Far above what other suites use, for integer columns under a unique index. */
export const uniqueNumber = () => 1_000_000 + randomInt(1_000_000_000);
