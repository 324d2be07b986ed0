import { decideCapacityReview } from '../../../commands/admin/capacity-review-decision.ts';
import { decideCapacityReviewBody } from '../../../commands/admin/capacity-review.schema.ts';
import { changeTesterStatus } from '../../../commands/admin/tester-status.ts';
import { testerStatusBody } from '../../../commands/admin/tester.schema.ts';
import type { RequestState } from '../../http/state.ts';
import { CAPACITY_REVIEWS_PATH, capacityReviewPath, testerPath, TESTERS_PATH } from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, parseForm } from '../shared/form-input.ts';
import { requireRole, type PageRouter, type SignedInRequest } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import {
  decisionInput,
  idOf,
  listOf,
  pendingReviews,
  suffixed,
  testerReasonField,
  testersOf,
  type TesterList,
} from './data.ts';
import { CapacityReviewsPage, TestersPage } from './view.tsx';
import type { CommandContext } from '../../../commands/context.ts';

/**
 * The admins' pages: capacity reviews to decide and testers to approve, suspend or reinstate,
 * through the commands of `POST /api/admin/capacity-reviews/:id` and `PATCH /api/admin/testers/:id`.
 */
export function mountAdminPages(pages: PageRouter, deps: CommandContext): void {
  const reviewsPage = async (
    request: SignedInRequest,
    extra: { errors?: FieldErrors; notice?: string },
    status = 200,
  ) => {
    const rows = await pendingReviews(deps.db, request.principal);
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

  pages.signedIn('GET', CAPACITY_REVIEWS_PATH, async (request) => {
    requireRole(request, 'admin');
    const notice = request.ctx.query.done ? 'Decision recorded: matching follows it now.' : undefined;
    await reviewsPage(request, notice ? { notice } : {});
  });

  pages.signedIn(
    'POST',
    capacityReviewPath(':id'),
    async (request) => {
      requireRole(request, 'admin');
      const id = idOf(request);
      const parsed = parseForm(decideCapacityReviewBody, decisionInput(request.form, id));
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
      seeOther(request.ctx, `${CAPACITY_REVIEWS_PATH}?done=1`);
    },
    () => CAPACITY_REVIEWS_PATH,
  );

  const testersPage = async (
    request: SignedInRequest,
    list: TesterList,
    extra: { errors?: FieldErrors; notice?: string },
    status = 200,
  ) => {
    const rows = await testersOf(deps.db, request.principal, list);
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

  pages.signedIn('GET', TESTERS_PATH, async (request) => {
    requireRole(request, 'admin');
    const notice = request.ctx.query.done ? "The tester's status is changed." : undefined;
    await testersPage(request, listOf(request.ctx.query.status), notice ? { notice } : {});
  });

  pages.signedIn(
    'POST',
    testerPath(':id'),
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
      seeOther(request.ctx, `${TESTERS_PATH}?status=${list}&done=1`);
    },
    () => TESTERS_PATH,
  );
}
