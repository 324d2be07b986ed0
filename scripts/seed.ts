// `npm run seed`: loads the demo data set (db/seed) into the configured database, migrating it first.
import { hashPassword } from '../api/auth/password-hash.ts';
import { loadConfig } from '../config/index.ts';
import { connectDatabase } from '../db/connection.ts';
import { seedDatabase } from '../db/seed/seed.ts';
import { SEED_PASSWORD } from '../db/seed/seed-data.ts';
import { prepareDatabase } from './lib/database.ts';

const { database } = loadConfig();
await prepareDatabase(database);
const handle = connectDatabase(database.url, { poolSize: 2 });
try {
  // One hash for every demo account: they share the documented demo password.
  const summary = await seedDatabase(handle.db, await hashPassword(SEED_PASSWORD));
  console.log(
    `seeded ${summary.organizations} organizations, ${summary.businessUsers} business users, ` +
      `${summary.testers} testers, 1 admin, quiz version ${summary.quizVersion} and ${summary.studies} active ` +
      `study with ${summary.sessions} confirmed sessions; ` +
      `every account's password is "${SEED_PASSWORD}"`,
  );
} finally {
  await handle.close();
}
