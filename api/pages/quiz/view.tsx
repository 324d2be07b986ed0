import { PROFILE_PATH, QUIZ_PATH } from '../paths.ts';
import { ErrorSummary, RadioGroup, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, Layout, type Viewer } from '../shared/layout.tsx';
import { answerField, type Quiz, type TesterProfile } from './data.ts';

/** An ISO time to the minute, as people read it (UTC). */
const utcMinute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** The notice after an attempt (`?done=1`): the pass, or the score with when to try again. */
export function resultText(profile: TesterProfile, passingScore: number | undefined): string | undefined {
  if (!profile.quiz) return undefined;
  if (profile.quiz.passed)
    return `You passed the quiz with ${profile.quiz.score} %. You can now be matched to studies.`;
  const retry = profile.nextQuizAttemptAt
    ? ` You may try again from ${utcMinute(profile.nextQuizAttemptAt)} UTC.`
    : '';
  const needed = passingScore === undefined ? '' : `; ${passingScore} % passes`;
  return `You scored ${profile.quiz.score} %${needed}.${retry}`;
}

/** Why the quiz cannot be taken now, in the order the command refuses; undefined when it can. */
export function closedReason(profile: TesterProfile, quiz: Quiz | undefined): string | undefined {
  if (profile.quiz?.passed) return 'You have passed the quiz: there is nothing more to do here.';
  if (profile.nextQuizAttemptAt)
    return `You may take the quiz again from ${utcMinute(profile.nextQuizAttemptAt)} UTC.`;
  if (!profile.country || profile.devices.length === 0)
    return 'Fill in your country and devices on your profile before taking the quiz.';
  if (!quiz) return 'There is no quiz to take yet.';
  return undefined;
}

/** `/quiz`: the current quiz, one radio group per question, or why it cannot be taken now. */
export function QuizPage(props: {
  csrf: string;
  viewer: Viewer;
  quiz: Quiz | undefined;
  profile: TesterProfile;
  values?: Readonly<Record<string, string>>;
  errors?: FieldErrors;
  notice?: string | undefined;
}) {
  const { csrf, viewer, quiz, profile, values = {}, errors = {} } = props;
  const labels = Object.fromEntries(
    (quiz?.questions ?? []).map((q, i) => [answerField(q.questionId), `Question ${i + 1}`]),
  );
  const closed = closedReason(profile, quiz);
  return (
    <Layout title="Qualification quiz" viewer={viewer} csrf={csrf} notice={props.notice}>
      <ErrorSummary errors={errors} labels={labels} />
      {closed ? (
        <p>
          {closed} <a href={PROFILE_PATH}>Back to your profile</a>
        </p>
      ) : (
        <>
          <p>{`Answer every question. ${quiz!.passingScore} % of the points passes; after a fail you may try again after 24 hours.`}</p>
          <form method="post" action={QUIZ_PATH} novalidate>
            <CsrfField token={csrf} />
            <input type="hidden" name="quizId" value={quiz!.quizId} />
            {quiz!.questions.map((question, index) => (
              <RadioGroup
                key={question.questionId}
                name={answerField(question.questionId)}
                legend={`Question ${index + 1}: ${question.text}`}
                choices={question.options.map((option) => ({ value: option.id, label: option.text }))}
                value={values[answerField(question.questionId)]}
                error={errors[answerField(question.questionId)]}
                required
              />
            ))}
            <button type="submit">Send my answers</button>
          </form>
        </>
      )}
    </Layout>
  );
}
