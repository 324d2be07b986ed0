// `npm run db:check`: fails, naming each table, when a table of the configured database lacks
// row-level security, FORCE, or any of its select, insert, update and delete policies.
import { loadConfig } from '../config/index.ts';
import { checkRowLevelSecurity, describeRlsProblems } from '../db/check-rls.ts';
import { connectDatabase } from '../db/connection.ts';

const { database } = loadConfig();
const handle = connectDatabase(database.url, { poolSize: 1 });
try {
  const problems = await checkRowLevelSecurity(handle.db);
  if (problems.length > 0) {
    const tables = new Set(problems.map((problem) => problem.table));
    console.error(`row-level security check failed for ${tables.size} table(s):`);
    console.error(describeRlsProblems(problems));
    process.exitCode = 1;
  } else {
    console.log('row-level security check passed: every table is enabled, forced and has four policies');
  }
} finally {
  await handle.close();
}
