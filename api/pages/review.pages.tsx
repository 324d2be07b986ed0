import { z } from 'zod';
import { confirmSessionBody } from '../sessions/sessions.schema.ts';
import type { SessionCommandDependencies } from '../sessions/create-session.ts';
import { confirmSession } from '../sessions/session-commands.ts';
import { notFound } from '../http/errors.ts';
import { formatPath } from '../http/validate.ts';
import type { FieldErrors } from './form-fields.tsx';
import { commandErrors, parseForm } from './form-input.ts';
import type { PageRouter, SignedInRequest } from './page-routes.ts';
import { renderPage, seeOther } from './render.ts';
import { loadReview, type ReviewData } from './review-data.ts';
import { annotationField, decisionField, ReviewPage } from './review-page.tsx';

const params = z.object({ id: z.uuid() });

async function reviewOf(deps: SessionCommandDependencies, request: SignedInRequest): Promise<ReviewData> {
  const id = params.safeParse(request.ctx.params);
  const review = id.success ? await loadReview(deps.db, request.principal, id.data.id) : undefined;
  if (!review) throw notFound('Session');
  return review;
}

/** The form as `POST /api/sessions/:id/confirm` takes it: one decision per finding, the rating, the comment. */
function confirmInput(review: ReviewData, form: Readonly<Record<string, string>>) {
  const text = (value: string | undefined) => (value && value.trim() ? value : undefined);
  const rating = form.rating?.trim();
  return {
    rating: rating && /^\d{1,2}$/.test(rating) ? Number(rating) : rating || undefined,
    comment: text(form.comment),
    notes: review.findings.map((note) => ({
      noteId: note.id,
      decision: form[decisionField(note)] ?? 'confirmed',
      annotation: text(form[annotationField(note)]),
    })),
  };
}

/** The schema's paths (`notes[2].annotation`) as the form's field names. */
function fieldErrorsOf(review: ReviewData, errors: FieldErrors): FieldErrors {
  const byPath: Record<string, string> = {};
  review.findings.forEach((note, index) => {
    byPath[formatPath(['notes', index, 'decision'])] = decisionField(note);
    byPath[formatPath(['notes', index, 'annotation'])] = annotationField(note);
  });
  return Object.fromEntries(Object.entries(errors).map(([path, message]) => [byPath[path] ?? path, message]));
}

/**
 * The tester's review page, the confirmation request's link: shows every AI finding and takes the
 * decisions, rating and comment in one post through the same command as
 * `POST /api/sessions/:id/confirm`, so the gate has one set of rules. Only the session's tester
 * sees it; once confirmed it shows what was sent, and a second post changes nothing.
 */
export function mountReviewPages(pages: PageRouter, deps: SessionCommandDependencies): void {
  pages.signedIn('GET', '/sessions/:id/review', async (request) => {
    const review = await reviewOf(deps, request);
    const notice = request.ctx.query.sent
      ? 'Thank you: your review was sent and the session is confirmed.'
      : undefined;
    renderPage(
      request.ctx,
      <ReviewPage csrf={request.csrf} viewer={request.viewer} review={review} notice={notice} />,
    );
  });

  pages.signedIn('POST', '/sessions/:id/review', async (request) => {
    const review = await reviewOf(deps, request);
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
    seeOther(request.ctx, `/sessions/${review.session.id}/review?sent=1`);
  });
}
