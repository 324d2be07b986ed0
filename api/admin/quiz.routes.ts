import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import {
  currentQuiz,
  insertQuiz,
  lockQuizVersions,
  replaceQuestions,
  updateQuiz,
  type QuizWithQuestions,
} from '../../db/repositories/quizzes.ts';
import { notFound } from '../http/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { publishedQuiz, publishQuizBody, quizRecord, updatedQuiz, updateQuizBody } from './quiz.schema.ts';

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

// The spec's admin quiz operations on one path: GET reads the current version, POST publishes the
// next (active at once: the current quiz is the highest version), PATCH changes it in place.
// Earlier passes stand whatever the quiz becomes.
export function adminQuizRoutes(deps: { readonly db: Db; readonly now: () => Date }): RouteDefinition[] {
  const admin = { tag: 'Admin', auth: 'user', roles: ['admin'] } as const;
  return [
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/api/admin/quiz',
      summary: 'The current quiz version, with its correct answers (admins only)',
      errors: [404],
      response: quizRecord,
      handler: async ({ principal }) =>
        asUser(deps.db, principal.claims, async (tx) => {
          const current = await currentQuiz(tx);
          if (!current) throw notFound('Quiz');
          return { data: toQuizRecord(current) };
        }),
    }),
    defineRoute({
      ...admin,
      method: 'POST',
      path: '/api/admin/quiz',
      summary: 'Publish a new quiz version (version + 1), active at once (admins only)',
      status: 201,
      body: publishQuizBody,
      response: publishedQuiz,
      handler: async ({ body, principal }) =>
        asUser(deps.db, principal.claims, async (tx) => {
          const at = deps.now();
          const version = (await lockQuizVersions(tx)) + 1;
          const quiz = await insertQuiz(tx, { version, passingScore: body.passingScore, at });
          await replaceQuestions(tx, quiz.id, body.questions);
          return {
            data: {
              quizId: quiz.id,
              version: quiz.version,
              questionCount: body.questions.length,
              publishedAt: quiz.published_at.toISOString(),
            },
          };
        }),
    }),
    defineRoute({
      ...admin,
      method: 'PATCH',
      path: '/api/admin/quiz',
      summary: 'Change the current quiz version in place; omitted fields keep their values (admins only)',
      errors: [404],
      body: updateQuizBody,
      response: updatedQuiz,
      handler: async ({ body, principal }) =>
        asUser(deps.db, principal.claims, async (tx) => {
          await lockQuizVersions(tx);
          const current = await currentQuiz(tx);
          if (!current) throw notFound('Quiz');
          const quiz = await updateQuiz(tx, current.quiz.id, {
            passingScore: body.passingScore,
            at: deps.now(),
          });
          if (body.questions) await replaceQuestions(tx, quiz.id, body.questions);
          return {
            data: {
              quizId: quiz.id,
              passingScore: quiz.passing_score,
              updatedAt: quiz.updated_at.toISOString(),
            },
          };
        }),
    }),
  ];
}
