// `npm run migrate`: creates the configured database when missing, applies pending migrations, and
// gives the service login the password DATABASE_SERVICE_URL carries (servers that require one).
import { loadConfig, SERVICE_LOGIN_ROLE } from '../config/index.ts';
import { prepareDatabase } from './lib/database.ts';

const { created, applied, skipped, servicePasswordSet } = await prepareDatabase(loadConfig().database);
console.log(
  `database ${created ? 'created' : 'exists'}; applied ${applied.length}, already applied ${skipped.length}`,
);
for (const name of applied) console.log(`  applied ${name}`);
if (servicePasswordSet) {
  console.log(`password of ${SERVICE_LOGIN_ROLE} set from DATABASE_SERVICE_URL`);
}
