import { z } from 'zod';
import { asUser } from '../../db/doors.ts';
import { listCapacityReviews } from '../../db/repositories/capacity-reviews.ts';
import { listTesters } from '../../db/repositories/tester-listing.ts';
import { decideCapacityReview } from '../admin/capacity-review-decision.ts';
import { decideCapacityReviewBody } from '../admin/capacity-reviews.schema.ts';
import { changeTesterStatus } from '../admin/tester-status.ts';
import { testerStatusBody } from '../admin/testers.schema.ts';
import { notFound } from '../http/errors.ts';
import type { RequestState } from '../http/state.ts';
import type { SessionCommandDependencies } from '../sessions/create-session.ts';
import {
  CapacityReviewsPage,
  reviewField,
  TESTER_LISTS,
  testerReasonField,
  TestersPage,
  type TesterList,
} from './admin-pages.tsx';
import type { FieldErrors } from './form-fields.tsx';
import { commandErrors, parseForm } from './form-input.ts';
import { requireRole, type PageRouter, type SignedInRequest } from './page-routes.ts';
import { renderPage, seeOther } from './render.ts';

/** One page shows at most this many; the API pages through the rest. */
const ADMIN_LIST_LIMIT = 100;
const idParams = z.object({ id: z.uuid() });

function idOf(request: SignedInRequest): string {
  const params = idParams.safeParse(request.ctx.params);
  if (!params.success) throw notFound('Page');
  return params.data.id;
}

const listOf = (value: unknown): TesterList =>
  TESTER_LISTS.includes(value as TesterList) ? (value as TesterList) : 'pending';

/** The schema's field names as this form's, which carry the item's id. */
const suffixed = (errors: FieldErrors, id: string): FieldErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([name, message]) => [name === 'form' ? name : `${name}-${id}`, message]),
  );

/**
 * The admins' pages: capacity reviews to decide and testers to approve, suspend or reinstate,
 * through the commands of `POST /api/admin/capacity-reviews/:id` and `PATCH /api/admin/testers/:id`.
 */
export function mountAdminPages(pages: PageRouter, deps: SessionCommandDependencies): void {
  const reviewsPage = async (
    request: SignedInRequest,
    extra: { errors?: FieldErrors; notice?: string },
    status = 200,
  ) => {
    const { rows } = await asUser(deps.db, request.principal.claims, (tx) =>
      listCapacityReviews(tx, { status: 'pending', limit: ADMIN_LIST_LIMIT, offset: 0 }),
    );
    renderPage(
      request.ctx,
      <CapacityReviewsPage
        csrf={request.csrf}
        viewer={request.viewer}
        reviews={rows}
        values={request.form}
        {...extra}
      />,
      status,
    );
  };

  pages.signedIn('GET', '/admin/capacity-reviews', async (request) => {
    requireRole(request, 'admin');
    const notice = request.ctx.query.done ? 'Decision recorded: matching follows it now.' : undefined;
    await reviewsPage(request, notice ? { notice } : {});
  });

  pages.signedIn(
    'POST',
    '/admin/capacity-reviews/:id',
    async (request) => {
      requireRole(request, 'admin');
      const id = idOf(request);
      const count = request.form[reviewField('adjustedCount', id)]?.trim();
      const note = request.form[reviewField('note', id)]?.trim();
      const input = {
        decision: request.form[reviewField('decision', id)],
        ...(count ? { adjustedCount: /^\d{1,6}$/.test(count) ? Number(count) : count } : {}),
        ...(note ? { note } : {}),
      };
      const parsed = parseForm(decideCapacityReviewBody, input);
      if ('errors' in parsed) return reviewsPage(request, { errors: suffixed(parsed.errors, id) }, 422);
      try {
        await decideCapacityReview(
          deps,
          request.principal,
          id,
          parsed.data,
          (request.ctx.state as RequestState).log,
        );
      } catch (error) {
        const refused = commandErrors(error, ['adjustedCount']);
        return reviewsPage(request, { errors: suffixed(refused.errors, id) }, refused.status);
      }
      seeOther(request.ctx, '/admin/capacity-reviews?done=1');
    },
    () => '/admin/capacity-reviews',
  );

  const testersPage = async (
    request: SignedInRequest,
    list: TesterList,
    extra: { errors?: FieldErrors; notice?: string },
    status = 200,
  ) => {
    const { rows } = await asUser(deps.db, request.principal.claims, (tx) =>
      listTesters(tx, { status: list, limit: ADMIN_LIST_LIMIT, offset: 0 }),
    );
    renderPage(
      request.ctx,
      <TestersPage
        csrf={request.csrf}
        viewer={request.viewer}
        list={list}
        testers={rows}
        values={request.form}
        {...extra}
      />,
      status,
    );
  };

  pages.signedIn('GET', '/admin/testers', async (request) => {
    requireRole(request, 'admin');
    const notice = request.ctx.query.done ? "The tester's status is changed." : undefined;
    await testersPage(request, listOf(request.ctx.query.status), notice ? { notice } : {});
  });

  pages.signedIn(
    'POST',
    '/admin/testers/:id',
    async (request) => {
      requireRole(request, 'admin');
      const id = idOf(request);
      const list = listOf(request.form.list);
      const parsed = parseForm(testerStatusBody, {
        status: request.form.status,
        reason: request.form[testerReasonField(id)] ?? '',
      });
      if ('errors' in parsed) return testersPage(request, list, { errors: suffixed(parsed.errors, id) }, 422);
      try {
        await changeTesterStatus(
          deps,
          request.principal,
          id,
          parsed.data,
          (request.ctx.state as RequestState).log,
        );
      } catch (error) {
        const refused = commandErrors(error, ['reason']);
        return testersPage(request, list, { errors: suffixed(refused.errors, id) }, refused.status);
      }
      seeOther(request.ctx, `/admin/testers?status=${list}&done=1`);
    },
    () => '/admin/testers',
  );
}
