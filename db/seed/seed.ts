import type { Db } from '../connection.ts';
import { asSystem, type Tx } from '../doors.ts';
import { insertQuiz, replaceQuestions } from '../repositories/quizzes.ts';
import type { UserRole } from '../../lib/domain.ts';
import { DEMO_STUDY } from './demo-study-data.ts';
import { seedDemoStudy } from './demo-study.ts';
import {
  SEED_ADMIN,
  SEED_ORGANIZATIONS,
  SEED_QUIZ,
  seedTesters,
  type SeedOrganization,
  type SeedTester,
} from './seed-data.ts';

export interface SeedSummary {
  readonly organizations: number;
  readonly businessUsers: number;
  readonly testers: number;
  readonly quizVersion: number;
  readonly studies: number;
  readonly sessions: number;
}

/**
 * Loads the demo data set through the system door. Safe to run again: rows are found by their
 * natural keys (email, organization name, quiz version 1, the demo study's idempotency key, a
 * session's study and tester) and set to the data set's values, so a second run changes nothing.
 * An account's password is set when the seed creates the account, never reset afterwards.
 */
export function seedDatabase(db: Db, passwordHash: string): Promise<SeedSummary> {
  return asSystem(db, async (tx) => {
    const organizationIds = new Map<string, string>();
    const userIds = new Map<string, string>();
    for (const organization of SEED_ORGANIZATIONS) {
      organizationIds.set(organization.name, await seedOrganization(tx, organization, passwordHash, userIds));
    }
    await upsertUser(tx, SEED_ADMIN.email, SEED_ADMIN.displayName, 'admin', passwordHash);
    const quiz = await seedQuiz(tx);
    const testers = seedTesters();
    for (const tester of testers)
      userIds.set(tester.email, await seedTester(tx, tester, quiz.id, passwordHash));
    const demo = await seedDemoStudy(
      tx,
      organizationIds.get(DEMO_STUDY.organizationName)!,
      userIds.get(DEMO_STUDY.createdByEmail)!,
      userIds,
    );
    return {
      organizations: SEED_ORGANIZATIONS.length,
      businessUsers: SEED_ORGANIZATIONS.reduce((sum, organization) => sum + organization.users.length, 0),
      testers: testers.length,
      quizVersion: quiz.version,
      studies: 1,
      sessions: demo.sessions,
    };
  });
}

async function upsertUser(
  tx: Tx,
  email: string,
  displayName: string,
  role: UserRole,
  passwordHash: string,
): Promise<string> {
  const row = await tx
    .insertInto('users')
    .values({ email, display_name: displayName, role, password_hash: passwordHash })
    .onConflict((conflict) => conflict.column('email').doUpdateSet({ display_name: displayName, role }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Returns the organization's id; its users' ids go into `userIds` by email. */
async function seedOrganization(
  tx: Tx,
  organization: SeedOrganization,
  passwordHash: string,
  userIds: Map<string, string>,
): Promise<string> {
  const existing = await tx
    .selectFrom('organizations')
    .select('id')
    .where('name', '=', organization.name)
    .executeTakeFirst();
  const organizationId = existing
    ? (
        await tx
          .updateTable('organizations')
          .set({ plan: organization.plan })
          .where('id', '=', existing.id)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    : (
        await tx
          .insertInto('organizations')
          .values({ name: organization.name, plan: organization.plan })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
  for (const user of organization.users) {
    const userId = await upsertUser(tx, user.email, user.displayName, 'business', passwordHash);
    userIds.set(user.email, userId);
    await tx
      .insertInto('organization_memberships')
      .values({ organization_id: organizationId, user_id: userId, member_role: user.memberRole })
      .onConflict((conflict) =>
        conflict.columns(['organization_id', 'user_id']).doUpdateSet({ member_role: user.memberRole }),
      )
      .execute();
  }
  return organizationId;
}

async function seedQuiz(tx: Tx): Promise<{ id: string; version: number }> {
  const existing = await tx
    .selectFrom('quizzes')
    .select(['id', 'version'])
    .orderBy('version', 'desc')
    .executeTakeFirst();
  if (existing) return existing;
  const quiz = await insertQuiz(tx, { version: 1, passingScore: SEED_QUIZ.passingScore, at: new Date() });
  await replaceQuestions(tx, quiz.id, SEED_QUIZ.questions);
  return quiz;
}

/**
 * A tester and their profile. A suspended profile suspends the account too (the trigger of
 * db/migrations/0015_data_hardening.sql), so seeded suspended testers cannot log in.
 */
async function seedTester(tx: Tx, tester: SeedTester, quizId: string, passwordHash: string): Promise<string> {
  const userId = await upsertUser(tx, tester.email, tester.displayName, 'tester', passwordHash);
  const quizResult =
    tester.quizScore === null
      ? { quiz_id: null, quiz_score: null, quiz_passed: null, quiz_completed_at: null }
      : {
          quiz_id: quizId,
          quiz_score: tester.quizScore,
          quiz_passed: tester.quizScore >= SEED_QUIZ.passingScore,
          quiz_completed_at: '2026-10-01T09:00:00Z',
        };
  const profile = {
    country: tester.country,
    birth_year: tester.birthYear,
    devices: tester.devices,
    languages: tester.languages,
    access_needs: tester.accessNeeds,
    assistive_technologies: tester.assistiveTechnologies,
    status: tester.status,
    ...quizResult,
  };
  await tx
    .insertInto('tester_profiles')
    .values({ user_id: userId, ...profile })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(profile))
    .execute();
  return userId;
}
