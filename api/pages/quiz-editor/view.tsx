import { QUIZ_EDITOR_PATH } from '../paths.ts';
import {
  ErrorSummary,
  FieldGroup,
  RadioGroup,
  TextArea,
  TextField,
  type FieldErrors,
} from '../shared/form-fields.tsx';
import { CsrfField, Layout, type Viewer } from '../shared/layout.tsx';
import {
  MAX_OPTIONS,
  MAX_QUESTIONS,
  optionField,
  questionField,
  type QuestionRow,
  type QuizEditorValues,
} from './data.ts';

/** Every field's label by its form name: the error summary names them. */
export function quizLabels(values: QuizEditorValues): Readonly<Record<string, string>> {
  const labels: Record<string, string> = { passingScore: 'Passing score', questions: 'Questions' };
  values.questions.forEach((question, row) => {
    labels[questionField(row, 'text')] = `Question ${row + 1}`;
    labels[questionField(row, 'points')] = `Question ${row + 1}, points`;
    labels[questionField(row, 'correct')] = `Question ${row + 1}, the right option`;
    labels[questionField(row, 'options')] = `Question ${row + 1}, options`;
    question.options.forEach((_, option) => {
      labels[optionField(row, option)] = `Question ${row + 1}, option ${option + 1}`;
    });
  });
  return labels;
}

function QuestionPanel({
  question,
  row,
  errors,
}: {
  question: QuestionRow;
  row: number;
  errors: FieldErrors;
}) {
  return (
    <div class="panel">
      <h2>{`Question ${row + 1}`}</h2>
      <TextArea
        name={questionField(row, 'text')}
        label={`Question ${row + 1}`}
        value={question.text}
        error={errors[questionField(row, 'text')]}
        maxLength={2000}
      />
      <TextField
        name={questionField(row, 'points')}
        label={`Question ${row + 1}, points`}
        type="number"
        value={question.points}
        error={errors[questionField(row, 'points')]}
        hint="1 to 100."
      />
      <FieldGroup
        name={questionField(row, 'options')}
        legend={`Question ${row + 1}, options`}
        hint="At least two; empty ones are left out."
        error={errors[questionField(row, 'options')]}
      >
        {question.options.map((text, option) => (
          <TextField
            key={option}
            name={optionField(row, option)}
            label={`Question ${row + 1}, option ${option + 1}`}
            value={text}
            error={errors[optionField(row, option)]}
            maxLength={500}
          />
        ))}
        {question.options.length < MAX_OPTIONS ? (
          <button type="submit" name="add" value={`option-${row + 1}`} class="secondary">
            {`Add an option to question ${row + 1}`}
          </button>
        ) : null}
      </FieldGroup>
      <RadioGroup
        name={questionField(row, 'correct')}
        legend={`Question ${row + 1}, the right option`}
        choices={question.options.map((_, option) => ({
          value: String(option + 1),
          label: `Option ${option + 1}`,
        }))}
        value={question.correct}
        error={errors[questionField(row, 'correct')]}
      />
    </div>
  );
}

export interface QuizEditorPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  /** The current version, when a quiz is published. */
  readonly version: number | undefined;
  readonly values: QuizEditorValues;
  readonly errors?: FieldErrors;
  readonly notice?: string | undefined;
}

/** `/admin/quiz`: the qualification quiz, to change in place or publish as the next version. */
export function QuizEditorPage({ csrf, viewer, version, values, errors = {}, notice }: QuizEditorPageProps) {
  const saveAs = version === undefined ? 'publish' : 'update';
  return (
    <Layout title="Qualification quiz" viewer={viewer} csrf={csrf} notice={notice}>
      <ErrorSummary errors={errors} labels={quizLabels(values)} />
      <p>
        {version === undefined
          ? 'No quiz is published yet: testers cannot qualify until one is.'
          : `Version ${version} is the one testers take. Saving changes it in place; publishing makes version ${version + 1}, taken from now on. Earlier passes stand either way.`}
      </p>
      <form method="post" action={QUIZ_EDITOR_PATH} novalidate>
        <CsrfField token={csrf} />
        {/* The version the form was read from: saving in place refuses to overwrite a newer one. */}
        {version === undefined ? null : <input type="hidden" name="version" value={String(version)} />}
        {/* Enter in a field presses a form's first submit button: this one, not "Add a question". */}
        <button type="submit" name="action" value={saveAs} class="default-submit">
          Save
        </button>
        <TextField
          name="passingScore"
          label="Passing score"
          type="number"
          value={values.passingScore}
          error={errors.passingScore}
          hint="The share of the points, in percent (0 to 100), a tester needs to pass."
        />
        <FieldGroup
          name="questions"
          legend="Questions"
          hint="Multiple choice, one right option each. A question left empty is left out."
          error={errors.questions}
        >
          {values.questions.map((question, row) => (
            <QuestionPanel key={row} question={question} row={row} errors={errors} />
          ))}
          {values.questions.length < MAX_QUESTIONS ? (
            <button type="submit" name="add" value="question" class="secondary">
              Add a question
            </button>
          ) : null}
        </FieldGroup>
        <div class="actions">
          {version === undefined ? (
            <button type="submit" name="action" value="publish">
              Publish version 1
            </button>
          ) : (
            <>
              <button type="submit" name="action" value="update">
                {`Save changes to version ${version}`}
              </button>
              <button type="submit" name="action" value="publish" class="secondary">
                {`Publish as version ${version + 1}`}
              </button>
            </>
          )}
        </div>
      </form>
    </Layout>
  );
}
