import { editOwnProfile, ownProfile } from '../../../commands/testers/tester-profile.ts';
import { updateTesterProfileBody } from '../../../commands/testers/tester.schema.ts';
import { PROFILE_PATH } from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, parseForm } from '../shared/form-input.ts';
import { requireRole, type PageRouter } from '../shared/page-routes.ts';
import { postedValues, profileInput, valuesOf } from './data.ts';
import { LABELS, ProfilePage } from './view.tsx';
import { renderPage, seeOther } from '../shared/render.ts';
import type { CommandContext } from '../../../commands/context.ts';

/** A problem with one item of a list (`languages[1]`) is shown at the list's field. */
const byField = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([path, message]) => {
      const field = path.replace(/\[\d+\].*$/, '');
      return field in LABELS ? [field, message] : ['form', message];
    }),
  );

export function mountProfilePages(pages: PageRouter, deps: CommandContext): void {
  pages.signedIn('GET', PROFILE_PATH, async (request) => {
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

  pages.signedIn('POST', PROFILE_PATH, async (request) => {
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
    seeOther(request.ctx, `${PROFILE_PATH}?saved=1`);
  });
}
