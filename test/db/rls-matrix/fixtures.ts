import { asSystem, type Claims, type Tx } from '../../../db/doors.ts';
import type { Actor } from './matrix.ts';
import { createPlatformRows, type PlatformRows } from './fixtures-platform.ts';
import { createSessionSideRows, type SessionSideRows } from './fixtures-sessions.ts';
import { email, unique, uniqueNumber } from './unique.ts';

/** The people of the matrix and one row of A's side in every table, all inserted through the system door. */
export interface Fixtures extends SessionSideRows, PlatformRows {
  readonly actors: Readonly<Record<Actor, Claims>>;
  readonly organizationA: string;
  readonly organizationB: string;
  /** A business user with no membership yet: the fresh membership row joins them to A. */
  readonly invitee: string;
  /** A tester outside the five actors, whose confirmed session on A's study has no report yet. */
  readonly bystander: string;
  readonly bystanderSession: string;
  /** A's running study: the tester with a session is on it; the tester without one was, but cancelled. */
  readonly study: string;
  /** A's finished study: the tester's confirmed session, its report and its payment. */
  readonly finishedStudy: string;
  readonly liveSession: string;
  readonly confirmedSession: string;
  /** A task of the running study (which has sessions: it no longer changes). */
  readonly task: string;
  /** A's draft study, without sessions, and its task (which its business may still change). */
  readonly draftStudy: string;
  readonly draftTask: string;
  readonly variant: string;
  readonly quiz: string;
  readonly question: string;
  /** The tester with a session's attempt at the quiz. */
  readonly quizAttempt: string;
  /** An admin's approval of the tester with a session. */
  readonly statusChange: string;
}

async function user(tx: Tx, role: Claims['role'], prefix: string): Promise<string> {
  const row = await tx
    .insertInto('users')
    .values({ email: email(prefix), role, display_name: prefix })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function organization(tx: Tx, owner: string): Promise<string> {
  const row = await tx
    .insertInto('organizations')
    .values({ name: unique('Org') })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('organization_memberships')
    .values({ organization_id: row.id, user_id: owner, member_role: 'owner' })
    .execute();
  return row.id;
}

export function studyValues(organizationId: string, status: 'draft' | 'active' | 'completed') {
  return {
    organization_id: organizationId,
    title: 'Checkout flow',
    description: 'Find the barriers of the checkout',
    prototype_url: 'https://example.com/checkout',
    prototype_type: 'url' as const,
    target_countries: ['DE'],
    target_devices: ['desktop' as const],
    target_languages: ['en'],
    tester_count: 5,
    compensation_currency: 'EUR',
    compensation_amount: '25.00',
    compensation_type: 'flat' as const,
    ab_test_enabled: false,
    require_think_aloud: false,
    record_screen: false,
    record_facial: false,
    record_voice: false,
    max_duration_minutes: 60,
    tone_profile: 'moderate' as const,
    status,
    estimated_launch_date: '2030-01-10T00:00:00Z',
  };
}

async function study(
  tx: Tx,
  organizationId: string,
  status: 'draft' | 'active' | 'completed',
): Promise<string> {
  const row = await tx
    .insertInto('studies')
    .values(studyValues(organizationId, status))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function createFixtures(db: Parameters<typeof asSystem>[0]): Promise<Fixtures> {
  return asSystem(db, async (tx) => {
    const businessA = await user(tx, 'business', 'business-a');
    const businessB = await user(tx, 'business', 'business-b');
    const testerWith = await user(tx, 'tester', 'tester-with');
    const testerWithout = await user(tx, 'tester', 'tester-without');
    const admin = await user(tx, 'admin', 'admin');
    const invitee = await user(tx, 'business', 'invitee');
    const bystander = await user(tx, 'tester', 'bystander');
    const organizationA = await organization(tx, businessA);
    const organizationB = await organization(tx, businessB);
    const studyId = await study(tx, organizationA, 'active');
    const finishedStudy = await study(tx, organizationA, 'completed');
    const draftStudy = await study(tx, organizationA, 'draft');
    // Tasks before sessions: once a study has one, its tasks no longer change (0040).
    const task = await tx
      .insertInto('study_tasks')
      .values({ study_id: studyId, position: 1, title: 'Pay', description: 'Pay for the basket' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const draftTask = await tx
      .insertInto('study_tasks')
      .values({ study_id: draftStudy, position: 1, title: 'Find', description: 'Find the basket' })
      .returning('id')
      .executeTakeFirstOrThrow();

    const session = (testerId: string, studyOf: string, state: 'active' | 'confirmed' | 'cancelled') =>
      tx
        .insertInto('sessions')
        .values({
          study_id: studyOf,
          organization_id: organizationA,
          tester_id: testerId,
          status: state,
          notes_confirmed: state === 'confirmed',
          notes_confirmed_at: state === 'confirmed' ? '2030-01-12T10:00:00Z' : null,
          completed_at: state === 'active' ? null : '2030-01-12T09:00:00Z',
          confirmed_at: state === 'confirmed' ? '2030-01-12T10:00:00Z' : null,
          cancelled_at: state === 'cancelled' ? '2030-01-12T10:00:00Z' : null,
          started_at: '2030-01-12T08:00:00Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => row.id);
    const liveSession = await session(testerWith, studyId, 'active');
    const confirmedSession = await session(testerWith, finishedStudy, 'confirmed');
    const bystanderSession = await session(bystander, studyId, 'confirmed');
    // The tester "without a session" had one and withdrew: a cancelled session opens nothing.
    await session(testerWithout, studyId, 'cancelled');

    const variant = await tx
      .insertInto('study_variants')
      .values({
        study_id: studyId,
        position: 1,
        label: 'A',
        description: 'Current checkout',
        split_ratio: '1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const quiz = await tx
      .insertInto('quizzes')
      .values({ version: uniqueNumber(), passing_score: 70 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const question = await tx
      .insertInto('quiz_questions')
      .values({
        quiz_id: quiz.id,
        position: 1,
        text: 'What does WCAG 1.4.3 cover?',
        options: JSON.stringify([
          { id: 'a', text: 'Contrast' },
          { id: 'b', text: 'Captions' },
        ]),
        correct_option_id: 'a',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const quizAttempt = await tx
      .insertInto('quiz_attempts')
      .values({
        tester_id: testerWith,
        quiz_id: quiz.id,
        quiz_version: 1,
        answers: '[]',
        score: 80,
        passed: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const statusChange = await tx
      .insertInto('tester_status_changes')
      .values({
        tester_id: testerWith,
        from_status: 'pending',
        to_status: 'active',
        reason: 'Vetted',
        changed_by: admin,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const sessionSide = await createSessionSideRows(tx, {
      organizationA,
      businessA,
      testerWith,
      study: studyId,
      finishedStudy,
      liveSession,
      confirmedSession,
      task: task.id,
    });

    const platform = await createPlatformRows(tx, { organizationA, businessA, testerWith, finishedStudy });

    const claims = (sub: string, role: Claims['role'], organizationId: string | null): Claims => ({
      sub,
      role,
      organization_id: organizationId,
    });
    return {
      ...sessionSide,
      ...platform,
      actors: {
        businessA: claims(businessA, 'business', organizationA),
        businessB: claims(businessB, 'business', organizationB),
        testerWith: claims(testerWith, 'tester', null),
        testerWithout: claims(testerWithout, 'tester', null),
        admin: claims(admin, 'admin', null),
      },
      organizationA,
      organizationB,
      invitee,
      bystander,
      bystanderSession,
      study: studyId,
      finishedStudy,
      draftStudy,
      liveSession,
      confirmedSession,
      task: task.id,
      draftTask: draftTask.id,
      variant: variant.id,
      quiz: quiz.id,
      question: question.id,
      quizAttempt: quizAttempt.id,
      statusChange: statusChange.id,
    };
  });
}
