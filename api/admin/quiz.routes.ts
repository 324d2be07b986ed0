import { notFound } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { changeQuiz, publishQuiz, readCurrentQuiz } from '../../commands/admin/quiz-commands.ts';
import { publishedQuiz, quizRecord, updatedQuiz } from './quiz.schema.ts';
import { publishQuizBody, updateQuizBody } from '../../commands/admin/quiz.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

// The spec's admin quiz operations on one path: GET reads the current version, POST publishes the
// next (active at once: the current quiz is the highest version), PATCH changes it in place.
// Earlier passes stand whatever the quiz becomes.
export function adminQuizRoutes(deps: CommandContext): RouteDefinition[] {
  const admin = { tag: 'Admin', auth: 'user', roles: ['admin'] } as const;
  return [
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/api/admin/quiz',
      summary: 'The current quiz version, with its correct answers (admins only)',
      errors: [404],
      response: quizRecord,
      handler: async ({ principal }) => {
        const quiz = await readCurrentQuiz(deps, principal);
        if (!quiz) throw notFound('Quiz');
        return { data: quiz };
      },
    }),
    defineRoute({
      ...admin,
      method: 'POST',
      path: '/api/admin/quiz',
      summary: 'Publish a new quiz version (version + 1), active at once (admins only)',
      status: 201,
      body: publishQuizBody,
      response: publishedQuiz,
      handler: async ({ body, principal }) => ({ data: await publishQuiz(deps, principal, body) }),
    }),
    defineRoute({
      ...admin,
      method: 'PATCH',
      path: '/api/admin/quiz',
      summary: 'Change the current quiz version in place; omitted fields keep their values (admins only)',
      errors: [404],
      body: updateQuizBody,
      response: updatedQuiz,
      handler: async ({ body, principal }) => ({ data: await changeQuiz(deps, principal, body) }),
    }),
  ];
}
