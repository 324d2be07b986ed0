import { quizForTester } from '../../../commands/testers/quiz-attempt.ts';
import type { TesterProfile } from '../../../commands/testers/tester-profile.ts';
import type { CommandContext } from '../../../commands/context.ts';

export type Quiz = Awaited<ReturnType<typeof quizForTester>>;
export type { TesterProfile };

/** The form's name of a question's radio group. */
export const answerField = (questionId: string) => `answer-${questionId}`;

/** The quiz testers take now; undefined before the first is published. */
export async function currentQuiz(deps: CommandContext): Promise<Quiz | undefined> {
  return quizForTester(deps).catch((error: unknown) => {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  });
}
