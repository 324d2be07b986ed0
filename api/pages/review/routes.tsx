import { confirmSessionBody } from '../../../commands/sessions/session.schema.ts';
import { confirmSession } from '../../../commands/sessions/session-commands.ts';
import { reviewPath } from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, parseForm } from '../shared/form-input.ts';
import type { PageRouter } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { confirmInput, fieldErrorsOf, reviewOf } from './data.ts';
import { ReviewPage } from './view.tsx';
import type { CommandContext } from '../../../commands/context.ts';

/**
 * The tester's review page, the confirmation request's link: shows every AI finding and takes the
 * decisions, rating and comment in one post through the same command as
 * `POST /api/sessions/:id/confirm`, so the gate has one set of rules. Only the session's tester
 * sees it; once confirmed it shows what was sent, and a second post changes nothing.
 */
export function mountReviewPages(pages: PageRouter, deps: CommandContext): void {
  pages.signedIn('GET', reviewPath(':id'), async (request) => {
    const review = await reviewOf(deps.db, request);
    const notice = request.ctx.query.sent
      ? 'Thank you: your review was sent and the session is confirmed.'
      : undefined;
    renderPage(
      request.ctx,
      <ReviewPage csrf={request.csrf} viewer={request.viewer} review={review} notice={notice} />,
      200,
      { framesSelf: review.recorded },
    );
  });

  pages.signedIn('POST', reviewPath(':id'), async (request) => {
    const review = await reviewOf(deps.db, request);
    const show = (errors: FieldErrors, status: number) =>
      renderPage(
        request.ctx,
        <ReviewPage
          csrf={request.csrf}
          viewer={request.viewer}
          review={review}
          values={request.form}
          errors={errors}
        />,
        status,
        { framesSelf: review.recorded },
      );
    if (review.session.status !== 'analyzed') {
      const message =
        review.session.status === 'confirmed'
          ? 'You have already sent your review; nothing was changed.'
          : `The findings cannot be confirmed yet: the session is ${review.session.status}.`;
      return renderPage(
        request.ctx,
        <ReviewPage csrf={request.csrf} viewer={request.viewer} review={review} notice={message} />,
        409,
        { framesSelf: review.recorded },
      );
    }
    const parsed = parseForm(confirmSessionBody, confirmInput(review, request.form));
    if ('errors' in parsed) return show(fieldErrorsOf(review, parsed.errors), 422);
    try {
      await confirmSession(deps, request.principal, review.session.id, parsed.data);
    } catch (error) {
      const refused = commandErrors(error, ['rating', 'comment']);
      return show(refused.errors, refused.status);
    }
    seeOther(request.ctx, `${reviewPath(review.session.id)}?sent=1`);
  });
}
