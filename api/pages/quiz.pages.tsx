import { quizForTester, submitQuizAttempt } from '../testers/quiz-attempt.ts';
import { ownProfile, type TesterProfileDependencies } from '../testers/tester-profile.ts';
import { quizAttemptBody } from '../testers/testers.schema.ts';
import { ErrorSummary, RadioGroup, type FieldErrors } from './form-fields.tsx';
import { commandErrors, parseForm } from './form-input.ts';
import { CsrfField, Layout, type Viewer } from './layout.tsx';
import { requireRole, type PageRouter } from './page-routes.ts';
import type { TesterProfile } from './profile-page.tsx';
import { renderPage, seeOther } from './render.ts';

type Quiz = Awaited<ReturnType<typeof quizForTester>>;
const answerField = (questionId: string) => `answer-${questionId}`;

function resultText(profile: TesterProfile, passingScore: number | undefined): string | undefined {
  if (!profile.quiz) return undefined;
  if (profile.quiz.passed)
    return `You passed the quiz with ${profile.quiz.score} %. You can now be matched to studies.`;
  const retry = profile.nextQuizAttemptAt
    ? ` You may try again from ${profile.nextQuizAttemptAt.slice(0, 16).replace('T', ' ')} UTC.`
    : '';
  const needed = passingScore === undefined ? '' : `; ${passingScore} % passes`;
  return `You scored ${profile.quiz.score} %${needed}.${retry}`;
}

/** Why the quiz cannot be taken now, in the order the command refuses; undefined when it can. */
function closedReason(profile: TesterProfile, quiz: Quiz | undefined): string | undefined {
  if (profile.quiz?.passed) return 'You have passed the quiz: there is nothing more to do here.';
  if (profile.nextQuizAttemptAt)
    return `You may take the quiz again from ${utcMinute(profile.nextQuizAttemptAt)} UTC.`;
  if (!profile.country || profile.devices.length === 0)
    return 'Fill in your country and devices on your profile before taking the quiz.';
  if (!quiz) return 'There is no quiz to take yet.';
  return undefined;
}

const utcMinute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

function QuizPage(props: {
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
          {closed} <a href="/profile">Back to your profile</a>
        </p>
      ) : (
        <>
          <p>{`Answer every question. ${quiz!.passingScore} % of the points passes; after a fail you may try again after 24 hours.`}</p>
          <form method="post" action="/quiz" novalidate>
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

async function currentQuiz(deps: TesterProfileDependencies): Promise<Quiz | undefined> {
  return quizForTester(deps).catch((error: unknown) => {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  });
}

/** `/quiz`: joining as a tester, through the same commands as `GET`/`POST /api/testers/me/quiz...`. */
export function mountQuizPages(pages: PageRouter, deps: TesterProfileDependencies): void {
  pages.signedIn('GET', '/quiz', async (request) => {
    requireRole(request, 'tester');
    const [profile, quiz] = [await ownProfile(deps, request.principal), await currentQuiz(deps)];
    const notice = request.ctx.query.done ? resultText(profile, quiz?.passingScore) : undefined;
    renderPage(
      request.ctx,
      <QuizPage csrf={request.csrf} viewer={request.viewer} quiz={quiz} profile={profile} notice={notice} />,
    );
  });

  pages.signedIn('POST', '/quiz', async (request) => {
    requireRole(request, 'tester');
    const quiz = await currentQuiz(deps);
    const profile = await ownProfile(deps, request.principal);
    const show = (errors: FieldErrors, status: number) =>
      renderPage(
        request.ctx,
        <QuizPage
          csrf={request.csrf}
          viewer={request.viewer}
          quiz={quiz}
          profile={profile}
          values={request.form}
          errors={errors}
        />,
        status,
      );
    const questions = quiz?.questions ?? [];
    // Each unanswered question is named at its place; a quiz closed to the tester is the command's to refuse.
    const unanswered = questions.filter((q) => !request.form[answerField(q.questionId)]);
    if (!closedReason(profile, quiz) && unanswered.length) {
      return show(
        Object.fromEntries(unanswered.map((q) => [answerField(q.questionId), 'Choose an answer'])),
        422,
      );
    }
    const answers = questions
      .filter((q) => request.form[answerField(q.questionId)])
      .map((q) => ({ questionId: q.questionId, optionId: request.form[answerField(q.questionId)] }));
    const parsed = parseForm(quizAttemptBody, { quizId: request.form.quizId, answers });
    try {
      if ('errors' in parsed) return show({ form: Object.values(parsed.errors)[0]! }, 422);
      await submitQuizAttempt(deps, request.principal, parsed.data);
    } catch (error) {
      const refused = commandErrors(error, []);
      return show(refused.errors, refused.status);
    }
    seeOther(request.ctx, '/quiz?done=1');
  });
}
