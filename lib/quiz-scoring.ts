// Scoring a tester's quiz attempt, a pure function: the share of the quiz's points earned by
// correct answers, rounded to a whole percentage.

/** After a failed attempt the tester may try again this much later (docs/decisions/testers.md, "Cool-down"). */
export const QUIZ_RETRY_COOLDOWN_MS = 24 * 60 * 60 * 1000;

export interface ScoredQuestion {
  readonly id: string;
  readonly optionIds: readonly string[];
  readonly correctOptionId: string;
  readonly points: number;
}

export interface GivenAnswer {
  readonly questionId: string;
  readonly optionId: string;
}

/** The first problem with the answers as `field: message`, or undefined when each question has one valid answer. */
export function answersProblem(
  questions: readonly ScoredQuestion[],
  answers: readonly GivenAnswer[],
): string | undefined {
  const byId = new Map(questions.map((question) => [question.id, question]));
  const seen = new Set<string>();
  for (const [index, answer] of answers.entries()) {
    const question = byId.get(answer.questionId);
    if (!question) return `answers[${index}].questionId: Not a question of this quiz`;
    if (seen.has(answer.questionId)) return `answers[${index}].questionId: Answered twice`;
    seen.add(answer.questionId);
    if (!question.optionIds.includes(answer.optionId)) {
      return `answers[${index}].optionId: Not an option of question ${answer.questionId}`;
    }
  }
  const missing = questions.filter((question) => !seen.has(question.id));
  if (missing.length)
    return `answers: Every question needs an answer (missing ${missing.map((q) => q.id).join(', ')})`;
  return undefined;
}

/** The attempt's score, 0-100: points of the correctly answered questions over all points. */
export function scoreAnswers(questions: readonly ScoredQuestion[], answers: readonly GivenAnswer[]): number {
  const chosen = new Map(answers.map((answer) => [answer.questionId, answer.optionId]));
  const total = questions.reduce((sum, question) => sum + question.points, 0);
  const earned = questions
    .filter((question) => chosen.get(question.id) === question.correctOptionId)
    .reduce((sum, question) => sum + question.points, 0);
  return total === 0 ? 0 : Math.round((100 * earned) / total);
}
