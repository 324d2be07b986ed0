import { asUser } from '../../db/doors.ts';
import {
  currentQuiz,
  insertQuiz,
  lockQuizVersions,
  replaceQuestions,
  updateQuiz,
  type QuizWithQuestions,
} from '../../db/repositories/quizzes.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { PublishQuizInput, UpdateQuizInput } from './quiz.schema.ts';
import type { CommandContext } from '../context.ts';

// The admins' quiz operations (`/api/admin/quiz` and the quiz editor page): the current version is
// the highest; publishing makes the next one, active at once; a change edits the current one in
// place. Earlier passes stand whatever the quiz becomes.

export type QuizRecord = ReturnType<typeof toQuizRecord>;

const toQuizRecord = ({ quiz, questions }: QuizWithQuestions) => ({
  quizId: quiz.id,
  version: quiz.version,
  passingScore: quiz.passing_score,
  questions: questions.map((question) => ({
    questionId: question.id,
    text: question.text,
    type: question.type,
    options: question.options,
    correctOptionId: question.correct_option_id,
    points: question.points,
  })),
  updatedAt: quiz.updated_at.toISOString(),
});

/** The current quiz with its correct answers, or undefined before the first is published. */
export async function readCurrentQuiz(
  deps: Pick<CommandContext, 'db'>,
  principal: Principal,
): Promise<QuizRecord | undefined> {
  const current = await asUser(deps.db, principal.claims, (tx) => currentQuiz(tx));
  return current && toQuizRecord(current);
}

/** Publishes the next version (the current one + 1), active at once. */
export function publishQuiz(deps: CommandContext, principal: Principal, body: PublishQuizInput) {
  return asUser(deps.db, principal.claims, async (tx) => {
    const at = deps.now();
    const version = (await lockQuizVersions(tx)) + 1;
    const quiz = await insertQuiz(tx, { version, passingScore: body.passingScore, at });
    await replaceQuestions(tx, quiz.id, body.questions);
    return {
      quizId: quiz.id,
      version: quiz.version,
      questionCount: body.questions.length,
      publishedAt: quiz.published_at.toISOString(),
    };
  });
}

/**
 * Changes the current version in place; what the body leaves out keeps its value. With
 * `expectedVersion` (the editor page's form), a newer version published meanwhile is refused
 * (409) rather than overwritten with what was read from the older one.
 */
export function changeQuiz(
  deps: CommandContext,
  principal: Principal,
  body: UpdateQuizInput,
  expectedVersion?: number,
) {
  return asUser(deps.db, principal.claims, async (tx) => {
    await lockQuizVersions(tx);
    const current = await currentQuiz(tx);
    if (!current) throw notFound('Quiz');
    if (expectedVersion !== undefined && current.quiz.version !== expectedVersion) {
      throw conflict(
        `Version ${current.quiz.version} was published after you opened version ${expectedVersion}: nothing was saved`,
      );
    }
    const quiz = await updateQuiz(tx, current.quiz.id, { passingScore: body.passingScore, at: deps.now() });
    if (body.questions) await replaceQuestions(tx, quiz.id, body.questions);
    return { quizId: quiz.id, passingScore: quiz.passing_score, updatedAt: quiz.updated_at.toISOString() };
  });
}
