import { submitQuizAttempt } from '../../../commands/testers/quiz-attempt.ts';
import { ownProfile } from '../../../commands/testers/tester-profile.ts';
import { quizAttemptBody } from '../../../commands/testers/tester.schema.ts';
import { QUIZ_PATH } from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, parseForm } from '../shared/form-input.ts';
import { requireRole, type PageRouter } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { answerField, currentQuiz } from './data.ts';
import { closedReason, QuizPage, resultText } from './view.tsx';
import type { CommandContext } from '../../../commands/context.ts';

/** `/quiz`: joining as a tester, through the same commands as `GET`/`POST /api/testers/me/quiz...`. */
export function mountQuizPages(pages: PageRouter, deps: CommandContext): void {
  pages.signedIn('GET', QUIZ_PATH, async (request) => {
    requireRole(request, 'tester');
    const [profile, quiz] = [await ownProfile(deps, request.principal), await currentQuiz(deps)];
    const notice = request.ctx.query.done ? resultText(profile, quiz?.passingScore) : undefined;
    renderPage(
      request.ctx,
      <QuizPage csrf={request.csrf} viewer={request.viewer} quiz={quiz} profile={profile} notice={notice} />,
    );
  });

  pages.signedIn('POST', QUIZ_PATH, async (request) => {
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
    seeOther(request.ctx, `${QUIZ_PATH}?done=1`);
  });
}
