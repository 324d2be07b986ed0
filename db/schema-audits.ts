// Kysely types of the audits tables (db/migrations); merged into `Database` in db/schema.ts.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the tables land
export interface AuditTables {}
