import { editOwnProfile, ownProfile, type TesterProfileDependencies } from '../testers/tester-profile.ts';
import { updateTesterProfileBody } from '../testers/testers.schema.ts';
import type { FieldErrors } from './form-fields.tsx';
import { commandErrors, formList, parseForm } from './form-input.ts';
import { requireRole, type PageRouter, type SignedInRequest } from './page-routes.ts';
import { LABELS, ProfilePage, valuesOf, type ProfileValues } from './profile-page.tsx';
import { renderPage, seeOther } from './render.ts';

function postedValues(request: SignedInRequest): ProfileValues {
  const { form, ctx } = request;
  return {
    country: (form.country ?? '').trim(),
    birthYear: (form.birthYear ?? '').trim(),
    devices: formList(ctx, 'devices'),
    languages: form.languages ?? '',
    assistiveTechnologies: formList(ctx, 'assistiveTechnologies'),
    accessNeeds: formList(ctx, 'accessNeeds'),
  };
}

/** The form as `PATCH /api/testers/me` takes it: every field given, an empty year clearing it. */
function profileInput(values: ProfileValues) {
  const year = values.birthYear;
  return {
    ...(values.country ? { country: values.country.toUpperCase() } : {}),
    birthYear: year === '' ? null : /^\d{1,4}$/.test(year) ? Number(year) : year,
    devices: values.devices,
    languages: values.languages.split(/[\s,]+/).filter(Boolean),
    assistiveTechnologies: values.assistiveTechnologies,
    accessNeeds: values.accessNeeds,
  };
}

/** A problem with one item of a list (`languages[1]`) is shown at the list's field. */
const byField = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([path, message]) => {
      const field = path.replace(/\[\d+\].*$/, '');
      return field in LABELS ? [field, message] : ['form', message];
    }),
  );

export function mountProfilePages(pages: PageRouter, deps: TesterProfileDependencies): void {
  pages.signedIn('GET', '/profile', async (request) => {
    requireRole(request, 'tester');
    const profile = await ownProfile(deps, request.principal);
    const notice = request.ctx.query.saved ? 'Your profile is saved.' : undefined;
    renderPage(
      request.ctx,
      <ProfilePage
        csrf={request.csrf}
        viewer={request.viewer}
        profile={profile}
        values={valuesOf(profile)}
        notice={notice}
      />,
    );
  });

  pages.signedIn('POST', '/profile', async (request) => {
    requireRole(request, 'tester');
    const values = postedValues(request);
    const show = async (errors: FieldErrors, status: number) =>
      renderPage(
        request.ctx,
        <ProfilePage
          csrf={request.csrf}
          viewer={request.viewer}
          profile={await ownProfile(deps, request.principal)}
          values={values}
          errors={errors}
        />,
        status,
      );
    const parsed = parseForm(updateTesterProfileBody, profileInput(values));
    if ('errors' in parsed) return show(byField(parsed.errors), 422);
    try {
      await editOwnProfile(deps, request.principal, parsed.data);
    } catch (error) {
      const refused = commandErrors(error, Object.keys(LABELS));
      return show(refused.errors, refused.status);
    }
    seeOther(request.ctx, '/profile?saved=1');
  });
}
