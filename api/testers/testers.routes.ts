import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { quizForTester, submitQuizAttempt } from '../../commands/testers/quiz-attempt.ts';
import { editOwnProfile, ownProfile } from '../../commands/testers/tester-profile.ts';
import { quizAttemptResult, testerProfile, testerQuiz } from './testers.schema.ts';
import { quizAttemptBody, updateTesterProfileBody } from '../../commands/testers/tester.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

export function testerRoutes(deps: CommandContext): RouteDefinition[] {
  const own = { tag: 'Testers', auth: 'user', roles: ['tester'] } as const;
  return [
    defineRoute({
      ...own,
      method: 'GET',
      path: '/api/testers/me',
      summary: "The tester's own profile, with the quiz result, points, level and badges",
      errors: [404],
      response: testerProfile,
      handler: async ({ principal }) => ({ data: await ownProfile(deps, principal) }),
    }),
    defineRoute({
      ...own,
      method: 'PATCH',
      path: '/api/testers/me',
      summary: "Fill in or change the tester's own profile (omitted fields keep their values)",
      errors: [404],
      body: updateTesterProfileBody,
      response: testerProfile,
      handler: async ({ body, principal }) => ({ data: await editOwnProfile(deps, principal, body) }),
    }),
    defineRoute({
      ...own,
      method: 'GET',
      path: '/api/testers/me/quiz',
      summary: 'The current qualification quiz, without its correct answers',
      errors: [404],
      response: testerQuiz,
      handler: async () => ({ data: await quizForTester(deps) }),
    }),
    defineRoute({
      ...own,
      method: 'POST',
      path: '/api/testers/me/quiz/attempts',
      summary:
        'Answer the current quiz once per attempt: scored at once; a pass makes the profile active, a fail allows another attempt after 24 hours',
      errors: [404, 409],
      status: 201,
      body: quizAttemptBody,
      response: quizAttemptResult,
      handler: async ({ body, principal }) => ({ data: await submitQuizAttempt(deps, principal, body) }),
    }),
  ];
}
