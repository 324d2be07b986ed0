import type { Db } from '../connection.ts';
import { asSystem, type Tx } from '../doors.ts';
import type { UserRole } from '../schema.ts';
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
}

/**
 * Loads the demo data set through the system door. Safe to run again: rows are found by their
 * natural keys (email, organization name, quiz version 1) and updated to the data set's values,
 * so a second run changes nothing.
 */
export function seedDatabase(db: Db, passwordHash: string): Promise<SeedSummary> {
  return asSystem(db, async (tx) => {
    let businessUsers = 0;
    for (const organization of SEED_ORGANIZATIONS) {
      businessUsers += await seedOrganization(tx, organization, passwordHash);
    }
    await upsertUser(tx, SEED_ADMIN.email, SEED_ADMIN.displayName, 'admin', passwordHash);
    const quiz = await seedQuiz(tx);
    const testers = seedTesters();
    for (const tester of testers) await seedTester(tx, tester, quiz.id, passwordHash);
    return {
      organizations: SEED_ORGANIZATIONS.length,
      businessUsers,
      testers: testers.length,
      quizVersion: quiz.version,
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
    .onConflict((conflict) =>
      conflict.column('email').doUpdateSet({ display_name: displayName, role, password_hash: passwordHash }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function seedOrganization(
  tx: Tx,
  organization: SeedOrganization,
  passwordHash: string,
): Promise<number> {
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
    await tx
      .insertInto('organization_memberships')
      .values({ organization_id: organizationId, user_id: userId, member_role: user.memberRole })
      .onConflict((conflict) =>
        conflict.columns(['organization_id', 'user_id']).doUpdateSet({ member_role: user.memberRole }),
      )
      .execute();
  }
  return organization.users.length;
}

async function seedQuiz(tx: Tx): Promise<{ id: string; version: number }> {
  const existing = await tx
    .selectFrom('quizzes')
    .select(['id', 'version'])
    .orderBy('version', 'desc')
    .executeTakeFirst();
  if (existing) return existing;
  const quiz = await tx
    .insertInto('quizzes')
    .values({ version: 1, passing_score: SEED_QUIZ.passingScore })
    .returning(['id', 'version'])
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('quiz_questions')
    .values(
      SEED_QUIZ.questions.map((question, index) => ({
        quiz_id: quiz.id,
        position: index + 1,
        text: question.text,
        options: JSON.stringify(question.options),
        correct_option_id: question.correctOptionId,
        points: question.points,
      })),
    )
    .execute();
  return quiz;
}

async function seedTester(tx: Tx, tester: SeedTester, quizId: string, passwordHash: string): Promise<void> {
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
}
