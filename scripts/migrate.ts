// `npm run migrate`: creates the configured database when missing, applies pending migrations, and
// gives the service login the password DATABASE_SERVICE_URL carries (servers that require one).
import { loadConfig, SERVICE_LOGIN_ROLE } from '../config/index.ts';
import { ensureDatabase, migrate, setServiceLoginPassword } from '../db/migrate.ts';

const { database } = loadConfig();
const created = await ensureDatabase(database.url);
const { applied, skipped } = await migrate(database.url);
console.log(
  `database ${created ? 'created' : 'exists'}; applied ${applied.length}, already applied ${skipped.length}`,
);
for (const name of applied) console.log(`  applied ${name}`);
if (await setServiceLoginPassword(database.url, database.serviceUrl, SERVICE_LOGIN_ROLE)) {
  console.log(`password of ${SERVICE_LOGIN_ROLE} set from DATABASE_SERVICE_URL`);
}
