import type { Insertable } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import type { TesterProfilesTable } from '../../db/schema-testers.ts';
import { testDatabase } from '../support/database.ts';
import { createTester } from '../support/factories.ts';

/**
 * A tester matching can propose: an active profile with the quiz passed, in `country` (each
 * suite recruits in a country of its own), on desktop, speaking English; `profile` changes any of it.
 */
export async function qualifiedTester(
  country: string,
  profile: Partial<Insertable<TesterProfilesTable>> = {},
): Promise<string> {
  const { sub } = await createTester();
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('tester_profiles')
      .values({
        user_id: sub,
        country,
        devices: ['desktop'],
        languages: ['en'],
        status: 'active',
        quiz_score: 90,
        quiz_passed: true,
        quiz_completed_at: new Date(),
        ...profile,
      })
      .execute(),
  );
  return sub;
}
