import { SERVICE_LOGIN_ROLE, type Config } from '../../config/index.ts';
import { ensureDatabase, migrate, setServiceLoginPassword } from '../../db/migrate.ts';

export interface PreparedDatabase {
  /** Whether the database did not exist and was created. */
  readonly created: boolean;
  readonly applied: readonly string[];
  readonly skipped: readonly string[];
  /** Whether DATABASE_SERVICE_URL carried a password that the service login was given. */
  readonly servicePasswordSet: boolean;
}

/**
 * What `npm start`, `npm run migrate` and `npm run seed` do first, as the schema's owner: create the
 * configured database when missing, apply pending migrations, and give the service login the
 * password DATABASE_SERVICE_URL carries (servers that require one).
 */
export async function prepareDatabase(database: Config['database']): Promise<PreparedDatabase> {
  const created = await ensureDatabase(database.url);
  const { applied, skipped } = await migrate(database.url);
  const servicePasswordSet = await setServiceLoginPassword(
    database.url,
    database.serviceUrl,
    SERVICE_LOGIN_ROLE,
  );
  return { created, applied, skipped, servicePasswordSet };
}
