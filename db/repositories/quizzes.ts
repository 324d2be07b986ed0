import { sql, type Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { QuizAnswer, QuizOption, QuizQuestionsTable, QuizzesTable } from '../schema-testers.ts';

export type QuizRow = Selectable<QuizzesTable>;
export type QuestionRow = Selectable<QuizQuestionsTable>;

export interface QuizWithQuestions {
  readonly quiz: QuizRow;
  readonly questions: QuestionRow[];
}

export interface NewQuestion {
  readonly text: string;
  readonly options: readonly QuizOption[];
  readonly correctOptionId: string;
  readonly points: number;
}

/**
 * The current quiz (the highest version: a new version is active at once), with its questions in
 * order. `forShare` holds an admin's change of it until the caller's transaction ends, so an
 * attempt is judged against one version of the quiz, never half of a change.
 */
export async function currentQuiz(
  tx: Tx,
  { forShare = false }: { forShare?: boolean } = {},
): Promise<QuizWithQuestions | undefined> {
  const latest = tx.selectFrom('quizzes').selectAll().orderBy('version', 'desc').limit(1);
  const quiz = await (forShare ? latest.forShare() : latest).executeTakeFirst();
  if (!quiz) return undefined;
  const questions = await tx
    .selectFrom('quiz_questions')
    .selectAll()
    .where('quiz_id', '=', quiz.id)
    .orderBy('position')
    .execute();
  return { quiz, questions };
}

/** Locks the quiz table against a concurrent publication, for the next version's number. */
export async function lockQuizVersions(tx: Tx): Promise<number> {
  // Share row exclusive conflicts with itself: two publications take turns, readers go on.
  await sql`lock table quizzes in share row exclusive mode`.execute(tx);
  const row = await tx
    .selectFrom('quizzes')
    .select((eb) => eb.fn.max('version').as('version'))
    .executeTakeFirst();
  return row?.version ?? 0;
}

export async function insertQuiz(
  tx: Tx,
  quiz: { readonly version: number; readonly passingScore: number; readonly at: Date },
): Promise<QuizRow> {
  return tx
    .insertInto('quizzes')
    .values({
      version: quiz.version,
      passing_score: quiz.passingScore,
      published_at: quiz.at,
      updated_at: quiz.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces the quiz's questions with `questions`, in their order. */
export async function replaceQuestions(
  tx: Tx,
  quizId: string,
  questions: readonly NewQuestion[],
): Promise<void> {
  await tx.deleteFrom('quiz_questions').where('quiz_id', '=', quizId).execute();
  await tx
    .insertInto('quiz_questions')
    .values(
      questions.map((question, index) => ({
        quiz_id: quizId,
        position: index + 1,
        text: question.text,
        options: JSON.stringify(question.options),
        correct_option_id: question.correctOptionId,
        points: question.points,
      })),
    )
    .execute();
}

export function updateQuiz(
  tx: Tx,
  quizId: string,
  change: { readonly passingScore?: number | undefined; readonly at: Date },
): Promise<QuizRow> {
  return tx
    .updateTable('quizzes')
    .set({
      ...(change.passingScore !== undefined ? { passing_score: change.passingScore } : {}),
      updated_at: change.at,
    })
    .where('id', '=', quizId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertQuizAttempt(
  tx: Tx,
  attempt: {
    readonly testerId: string;
    readonly quiz: QuizRow;
    readonly answers: readonly QuizAnswer[];
    readonly score: number;
    readonly passed: boolean;
    readonly at: Date;
  },
): Promise<string> {
  const row = await tx
    .insertInto('quiz_attempts')
    .values({
      tester_id: attempt.testerId,
      quiz_id: attempt.quiz.id,
      quiz_version: attempt.quiz.version,
      answers: JSON.stringify(attempt.answers),
      score: attempt.score,
      passed: attempt.passed,
      created_at: attempt.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The tester's latest attempt, if any. */
export function latestQuizAttempt(tx: Tx, testerId: string) {
  return tx
    .selectFrom('quiz_attempts')
    .selectAll()
    .where('tester_id', '=', testerId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
