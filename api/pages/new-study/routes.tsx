import { randomUUID } from 'node:crypto';
import { createStudy } from '../../../commands/studies/create-study.ts';
import { createStudyBody, idempotencyKeyHeader } from '../../../commands/studies/study.schema.ts';
import { NEW_STUDY_PATH, studyPath } from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, formList, parseForm } from '../shared/form-input.ts';
import {
  blankStudyValues,
  fieldOfPath,
  notNumbers,
  postedStudyValues,
  studyInputOf,
  withRows,
  type NewStudyValues,
} from './data.ts';
import { NewStudyPage, studyFormLabels } from './view.tsx';
import { requireRole, type PageRouter, type SignedInRequest } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import type { CommandContext } from '../../../commands/context.ts';

/** Each of the schema's problems at its field of the form (a number field that holds text says so). */
function formErrors(values: NewStudyValues, schemaErrors: FieldErrors): FieldErrors {
  const fields = new Set(Object.keys(studyFormLabels(values)));
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(schemaErrors)) {
    errors[fieldOfPath(path, values, fields)] ??= message;
  }
  return { ...errors, ...notNumbers(values) };
}

/**
 * The create-study form of a business (`/dashboard/jobs/new`), through the command of
 * `POST /api/jobs`: its schema's rules, each problem at its field; the form's idempotency key makes
 * a second press of the button answer the study the first one made.
 */
export function mountNewStudyPages(pages: PageRouter, deps: CommandContext): void {
  const show = (request: SignedInRequest, values: NewStudyValues, errors: FieldErrors = {}, status = 200) =>
    renderPage(
      request.ctx,
      <NewStudyPage csrf={request.csrf} viewer={request.viewer} values={values} errors={errors} />,
      status,
    );

  pages.signedIn('GET', NEW_STUDY_PATH, (request) => {
    requireRole(request, 'business');
    show(request, blankStudyValues(randomUUID()));
  });

  pages.signedIn('POST', NEW_STUDY_PATH, async (request) => {
    requireRole(request, 'business');
    const { form, ctx } = request;
    const key = idempotencyKeyHeader.safeParse(form.idempotencyKey);
    const posted = postedStudyValues(
      form,
      { devices: formList(ctx, 'targeting-devices'), switches: formList(ctx, 'settings') },
      key.success ? key.data : randomUUID(),
    );
    // "Add another task" and "Add another variant" show the form again with one more row.
    if (form.add === 'task' || form.add === 'variant') return show(request, withRows(posted, form.add));

    const values = withRows(posted, undefined);
    const parsed = parseForm(createStudyBody, studyInputOf(posted));
    const numberErrors = notNumbers(values);
    if ('errors' in parsed || Object.keys(numberErrors).length) {
      return show(request, values, formErrors(values, 'errors' in parsed ? parsed.errors : {}), 422);
    }
    try {
      const { row } = await createStudy(deps, request.principal, parsed.data, values.idempotencyKey);
      seeOther(ctx, `${studyPath(row.id)}?done=created`);
    } catch (error) {
      const refused = commandErrors(error, []);
      // The key made a study from other values (the form sent again after going back and
      // changing it): a new key, so the next press makes another study, as the form then says.
      const reused = refused.errors.form?.startsWith('Idempotency-Key');
      const errors = reused
        ? { form: 'This form already made a study with other values. Send it again to make another.' }
        : refused.errors;
      show(request, reused ? { ...values, idempotencyKey: randomUUID() } : values, errors, refused.status);
    }
  });
}
