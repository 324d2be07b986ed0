import type { QuizRecord } from '../../../commands/admin/quiz-commands.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { blankless, notNumberErrors, numberOf, postedRows } from '../shared/form-input.ts';

/** The API takes at most 100 questions of at most 20 options. */
export const MAX_QUESTIONS = 100;
export const MAX_OPTIONS = 20;

export interface QuestionRow {
  readonly text: string;
  readonly points: string;
  /** The right option's position among `options`, from 1 (empty: none chosen). */
  readonly correct: string;
  readonly options: readonly string[];
}

export interface QuizEditorValues {
  readonly passingScore: string;
  readonly questions: readonly QuestionRow[];
}

// Form names: qs would read dots and brackets as nesting, so rows are numbered in the name.
export const questionField = (row: number, field: 'text' | 'points' | 'correct' | 'options') =>
  `q-${row + 1}-${field}`;
export const optionField = (row: number, option: number) => `q-${row + 1}-o-${option + 1}-text`;

/** An option's id in the body: its position as a letter (the admin never types ids). */
const optionId = (index: number) => (index < 26 ? String.fromCharCode(97 + index) : String(index + 1));

export const blankQuestion = (): QuestionRow => ({
  text: '',
  points: '1',
  correct: '',
  options: ['', '', ''],
});

export function quizValues(quiz: QuizRecord | undefined): QuizEditorValues {
  if (!quiz) return { passingScore: '70', questions: [blankQuestion()] };
  return {
    passingScore: String(quiz.passingScore),
    questions: quiz.questions.map((question) => ({
      text: question.text,
      points: String(question.points),
      correct: String(question.options.findIndex((option) => option.id === question.correctOptionId) + 1),
      options: question.options.map((option) => option.text),
    })),
  };
}

/** The rows to show again: what was posted, at least one question of two options, one more if asked. */
export function withRows(values: QuizEditorValues, add: string | undefined): QuizEditorValues {
  const questions: QuestionRow[] = values.questions.map((question, row) => {
    const options = [...question.options];
    while (options.length < 2) options.push('');
    if (add === `option-${row + 1}` && options.length < MAX_OPTIONS) options.push('');
    return { ...question, options };
  });
  if (!questions.length || (add === 'question' && questions.length < MAX_QUESTIONS))
    questions.push(blankQuestion());
  return { ...values, questions };
}

/**
 * The questions as posted, without the blank ones (no text and no option); each question's options
 * without the blank ones, its right answer following its option to the option's new place.
 */
export function postedQuizValues(form: Readonly<Record<string, string>>): QuizEditorValues {
  // Each question's option fields, gathered in one pass over the form.
  const optionFields = new Map<number, Record<string, string>>();
  for (const [name, value] of Object.entries(form)) {
    const option = /^q-(\d{1,3})-o-\d{1,3}-text$/.exec(name);
    if (!option) continue;
    const n = Number(option[1]);
    const fields = optionFields.get(n) ?? {};
    fields[name] = value;
    optionFields.set(n, fields);
  }
  const optionRows = new Map<number, { text: string; n: number }[]>();
  const optionsOf = (n: number) => {
    if (!optionRows.has(n)) {
      optionRows.set(n, postedRows(optionFields.get(n) ?? {}, `q-${n}-o`, ['text'] as const, MAX_OPTIONS));
    }
    return optionRows.get(n)!;
  };
  const rows = postedRows(
    form,
    'q',
    ['text', 'points', 'correct'] as const,
    MAX_QUESTIONS,
    (row, n) => row.text.trim() === '' && optionsOf(n).length === 0,
  );
  return {
    passingScore: (form.passingScore ?? '').trim(),
    questions: rows.map((row) => {
      const options = optionsOf(row.n);
      const right = options.findIndex((option) => String(option.n) === row.correct);
      return {
        text: row.text,
        points: row.points.trim(),
        correct: right >= 0 ? String(right + 1) : '',
        options: options.map((option) => option.text),
      };
    }),
  };
}

/** The body of `POST` or `PATCH /api/admin/quiz` the form stands for. */
export function quizInputOf(values: QuizEditorValues): Record<string, unknown> {
  return {
    passingScore: numberOf(values.passingScore),
    questions: values.questions.map((question) => ({
      text: blankless(question.text),
      options: question.options.map((text, index) => ({ id: optionId(index), text: blankless(text) })),
      correctOptionId: question.correct ? optionId(Number(question.correct) - 1) : undefined,
      points: numberOf(question.points),
    })),
  };
}

/** The number fields that hold text, by form name. */
export const quizNumberErrors = (values: QuizEditorValues): FieldErrors =>
  notNumberErrors({
    passingScore: values.passingScore,
    ...Object.fromEntries(
      values.questions.map((question, row) => [questionField(row, 'points'), question.points]),
    ),
  });

/** Where the schema's problem with `path` (`questions[0].options[1].text`) is shown on the form. */
export function quizFieldOfPath(path: string): string {
  if (path === 'passingScore' || path === 'questions') return path;
  const option = /^questions\[(\d+)\]\.options\[(\d+)\]/.exec(path);
  if (option) return optionField(Number(option[1]), Number(option[2]));
  const field = /^questions\[(\d+)\]\.(text|points|correctOptionId|options)/.exec(path);
  if (field) {
    const name = field[2] === 'correctOptionId' ? 'correct' : (field[2] as 'text' | 'points' | 'options');
    return questionField(Number(field[1]), name);
  }
  const question = /^questions\[(\d+)\]/.exec(path);
  return question ? questionField(Number(question[1]), 'text') : 'form';
}
