// Kysely types of the auth tables (db/migrations); merged into `Database` in db/schema.ts.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the tables land
export interface AuthTables {}
