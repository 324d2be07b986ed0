import { asSystem, type Tx } from '../../db/doors.ts';
import {
  currentQuiz,
  insertQuizAttempt,
  latestQuizAttempt,
  type QuizWithQuestions,
} from '../../db/repositories/quizzes.ts';
import { lockTesterProfile, recordQuizResult } from '../../db/repositories/tester-profiles.ts';
import { answersProblem, QUIZ_RETRY_COOLDOWN_MS, scoreAnswers } from '../../lib/quiz-scoring.ts';
import type { CommandContext } from '../context.ts';
import type { Principal } from '../principal.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { nextQuizAttemptAt } from './tester-profile.ts';
import type { QuizAttemptInput } from './tester.schema.ts';

const scored = ({ questions }: QuizWithQuestions) =>
  questions.map((question) => ({
    id: question.id,
    optionIds: question.options.map((option) => option.id),
    correctOptionId: question.correct_option_id,
    points: question.points,
  }));

/** The current quiz as a tester sees it: without the correct answers. */
export async function quizForTester(deps: Pick<CommandContext, 'db'>) {
  // The system door: quizzes are admin-only because they hold the answers, which are left out here.
  const current = await asSystem(deps.db, (tx) => currentQuiz(tx));
  if (!current) throw notFound('Quiz');
  return {
    quizId: current.quiz.id,
    version: current.quiz.version,
    passingScore: current.quiz.passing_score,
    questions: current.questions.map((question) => ({
      questionId: question.id,
      text: question.text,
      type: question.type,
      options: question.options,
      points: question.points,
    })),
  };
}

/** The refusals before an attempt is scored, in the order a tester would fix them. */
async function judgeAttempt(tx: Tx, testerId: string, quizId: string, now: Date): Promise<QuizWithQuestions> {
  const profile = await lockTesterProfile(tx, testerId);
  if (!profile) throw notFound('Tester profile');
  if (profile.status === 'suspended') throw conflict('A suspended tester cannot take the quiz');
  if (profile.quiz_passed) throw conflict('You have passed the quiz already');
  if (!profile.country || profile.devices.length === 0) {
    throw conflict('Fill in your profile (country and devices) before taking the quiz');
  }
  const next = nextQuizAttemptAt(profile, await latestQuizAttempt(tx, testerId), now);
  if (next) throw conflict(`You may take the quiz again from ${next.toISOString()}`);
  const current = await currentQuiz(tx, { forShare: true });
  if (!current) throw notFound('Quiz');
  if (current.quiz.id !== quizId) {
    throw conflict(`The quiz has changed (version ${current.quiz.version} is current): fetch it again`);
  }
  return current;
}

/**
 * Scores one attempt at the current quiz and stores it with the version it answered. A pass
 * (`passingScore`) makes a pending profile active; a fail allows the next attempt after
 * QUIZ_RETRY_COOLDOWN_MS. The profile's row lock takes concurrent attempts one at a time.
 */
export async function submitQuizAttempt(
  deps: Pick<CommandContext, 'db' | 'now'>,
  principal: Principal,
  input: QuizAttemptInput,
) {
  const now = deps.now();
  const testerId = principal.claims.sub;
  return asSystem(deps.db, async (tx) => {
    const current = await judgeAttempt(tx, testerId, input.quizId, now);
    const questions = scored(current);
    const problem = answersProblem(questions, input.answers);
    if (problem) throw invalid(problem);
    const score = scoreAnswers(questions, input.answers);
    const passed = score >= current.quiz.passing_score;
    const attemptId = await insertQuizAttempt(tx, {
      testerId,
      quiz: current.quiz,
      answers: input.answers,
      score,
      passed,
      at: now,
    });
    await recordQuizResult(tx, testerId, { quizId: current.quiz.id, score, passed, at: now });
    return {
      attemptId,
      quizId: current.quiz.id,
      version: current.quiz.version,
      score,
      passingScore: current.quiz.passing_score,
      passed,
      completedAt: now.toISOString(),
      nextAttemptAt: passed ? null : new Date(now.getTime() + QUIZ_RETRY_COOLDOWN_MS).toISOString(),
    };
  });
}
