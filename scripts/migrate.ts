// `npm run migrate`: creates the configured database when missing and applies pending migrations.
import { loadConfig } from '../config/index.ts';
import { ensureDatabase, migrate } from '../db/migrate.ts';

const { database } = loadConfig();
const created = await ensureDatabase(database.url);
const { applied, skipped } = await migrate(database.url);
console.log(
  `database ${created ? 'created' : 'exists'}; applied ${applied.length}, already applied ${skipped.length}`,
);
for (const name of applied) console.log(`  applied ${name}`);
