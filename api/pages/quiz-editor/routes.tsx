import { changeQuiz, publishQuiz, readCurrentQuiz } from '../../../commands/admin/quiz-commands.ts';
import { publishQuizBody } from '../../../commands/admin/quiz.schema.ts';
import { QUIZ_EDITOR_PATH } from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, parseForm } from '../shared/form-input.ts';
import { requireRole, type PageRouter, type SignedInRequest } from '../shared/page-routes.ts';
import {
  postedQuizValues,
  quizFieldOfPath,
  quizInputOf,
  quizNumberErrors,
  quizValues,
  withRows,
  type QuizEditorValues,
} from './data.ts';
import { QuizEditorPage } from './view.tsx';
import { renderPage, seeOther } from '../shared/render.ts';
import type { CommandContext } from '../../../commands/context.ts';

const DONE: Readonly<Record<string, string>> = {
  updated: 'Quiz saved: testers taking it from now on get it as it reads here.',
  published: 'Quiz published: testers taking it from now on get this version.',
};

/**
 * The admins' quiz editor (`/admin/quiz`), through the commands of `/api/admin/quiz`: the form is
 * the whole quiz, saved in place (PATCH) or published as the next version (POST), with the schema
 * of the publish body (a saved form gives every field, so both take the same rules).
 */
export function mountQuizEditorPages(pages: PageRouter, deps: CommandContext): void {
  const show = async (
    request: SignedInRequest,
    values?: QuizEditorValues,
    errors: FieldErrors = {},
    status = 200,
  ) => {
    const quiz = await readCurrentQuiz(deps, request.principal);
    const done = request.ctx.query.done;
    const notice = typeof done === 'string' && Object.hasOwn(DONE, done) ? DONE[done] : undefined;
    renderPage(
      request.ctx,
      <QuizEditorPage
        csrf={request.csrf}
        viewer={request.viewer}
        version={quiz?.version}
        values={values ?? withRows(quizValues(quiz), undefined)}
        errors={errors}
        notice={notice}
      />,
      status,
    );
  };

  pages.signedIn('GET', QUIZ_EDITOR_PATH, async (request) => {
    requireRole(request, 'admin');
    await show(request);
  });

  pages.signedIn('POST', QUIZ_EDITOR_PATH, async (request) => {
    requireRole(request, 'admin');
    const { form } = request;
    const posted = postedQuizValues(form);
    if (form.add) return show(request, withRows(posted, form.add));

    const values = withRows(posted, undefined);
    const parsed = parseForm(publishQuizBody, quizInputOf(posted));
    const numberErrors = quizNumberErrors(values);
    if ('errors' in parsed || Object.keys(numberErrors).length) {
      const errors: Record<string, string> = {};
      for (const [path, message] of Object.entries('errors' in parsed ? parsed.errors : {})) {
        errors[quizFieldOfPath(path)] ??= message;
      }
      return show(request, values, { ...errors, ...numberErrors }, 422);
    }
    const publish = form.action === 'publish';
    try {
      if (publish) await publishQuiz(deps, request.principal, parsed.data);
      else await changeQuiz(deps, request.principal, parsed.data, Number(form.version) || 0);
    } catch (error) {
      const refused = commandErrors(error, []);
      return show(request, values, refused.errors, refused.status);
    }
    seeOther(request.ctx, `${QUIZ_EDITOR_PATH}?done=${publish ? 'published' : 'updated'}`);
  });
}
