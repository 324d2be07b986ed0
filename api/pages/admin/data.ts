import { z } from 'zod';
import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { listCapacityReviews } from '../../../db/repositories/capacity-reviews.ts';
import { listTesters } from '../../../db/repositories/tester-listing.ts';
import type { SessionPrincipal } from '../../../commands/principal.ts';
import { notFound } from '../../../lib/errors.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import type { SignedInRequest } from '../shared/page-routes.ts';

/** One page shows at most this many; the API pages through the rest. */
const ADMIN_LIST_LIMIT = 100;
const idParams = z.object({ id: z.uuid() });

// The forms' field names carry the id of the review or tester they decide.
export const reviewField = (name: string, id: string) => `${name}-${id}`;
export const testerReasonField = (id: string) => `reason-${id}`;

export const TESTER_LISTS = ['pending', 'active', 'suspended'] as const;
export type TesterList = (typeof TESTER_LISTS)[number];

/** The page's `:id`; anything but a UUID is the 404 page. */
export function idOf(request: SignedInRequest): string {
  const params = idParams.safeParse(request.ctx.params);
  if (!params.success) throw notFound('Page');
  return params.data.id;
}

/** The list asked for (`?status=`, the form's `list`): pending unless it names another. */
export const listOf = (value: unknown): TesterList =>
  TESTER_LISTS.includes(value as TesterList) ? (value as TesterList) : 'pending';

/** The schema's field names as this form's, which carry the item's id. */
export const suffixed = (errors: FieldErrors, id: string): FieldErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([name, message]) => [name === 'form' ? name : `${name}-${id}`, message]),
  );

/** The pending capacity reviews, as `GET /api/admin/capacity-reviews?status=pending` reads them. */
export async function pendingReviews(db: Db, principal: SessionPrincipal) {
  const { rows } = await asUser(db, principal.claims, (tx) =>
    listCapacityReviews(tx, { status: 'pending', limit: ADMIN_LIST_LIMIT, offset: 0 }),
  );
  return rows;
}

/** The testers of one status, as `GET /api/admin/testers` reads them. */
export async function testersOf(db: Db, principal: SessionPrincipal, list: TesterList) {
  const { rows } = await asUser(db, principal.claims, (tx) =>
    listTesters(tx, { status: list, limit: ADMIN_LIST_LIMIT, offset: 0 }),
  );
  return rows;
}

/** A capacity review's decision form as `POST /api/admin/capacity-reviews/:id` takes it. */
export function decisionInput(form: Readonly<Record<string, string>>, id: string) {
  const count = form[reviewField('adjustedCount', id)]?.trim();
  const note = form[reviewField('note', id)]?.trim();
  return {
    decision: form[reviewField('decision', id)],
    ...(count ? { adjustedCount: /^\d{1,6}$/.test(count) ? Number(count) : count } : {}),
    ...(note ? { note } : {}),
  };
}
