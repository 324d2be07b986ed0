import type { CapacityReviewRow } from '../../../db/repositories/capacity-reviews.ts';
import type { TesterListingRow } from '../../../db/repositories/tester-listing.ts';
import { capacityReviewPath, testerPath, TESTERS_PATH } from '../paths.ts';
import { ErrorSummary, RadioGroup, TextArea, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, day, Layout, type Viewer } from '../shared/layout.tsx';
import { reviewField, TESTER_LISTS, testerReasonField, type TesterList } from './data.ts';

interface PageBase {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly notice?: string | undefined;
  readonly errors?: FieldErrors;
  readonly values?: Readonly<Record<string, string>>;
}

function segmentText(review: CapacityReviewRow): string {
  const ages = review.segment.ageRange
    ? `, ages ${review.segment.ageRange.min} to ${review.segment.ageRange.max}`
    : '';
  return `${review.segment.country}${ages}`;
}

/** `/admin/capacity-reviews`: the pending reviews, each with its decision form. */
export function CapacityReviewsPage({
  csrf,
  viewer,
  notice,
  errors = {},
  values = {},
  reviews,
}: PageBase & { reviews: readonly CapacityReviewRow[] }) {
  const labels: Record<string, string> = {};
  reviews.forEach((review, index) => {
    labels[reviewField('decision', review.id)] = `Review ${index + 1}, decision`;
    labels[reviewField('adjustedCount', review.id)] = `Review ${index + 1}, testers to hold`;
    labels[reviewField('note', review.id)] = `Review ${index + 1}, note`;
  });
  return (
    <Layout title="Capacity reviews" viewer={viewer} csrf={csrf} notice={notice}>
      <ErrorSummary errors={errors} labels={labels} />
      <p>
        A study asked for more testers in a segment than it has. Approve it to hold the segment at a number of
        testers, or reject it to stop matching there (the business is told).
      </p>
      {reviews.length ? (
        reviews.map((review, index) => (
          <section class="finding" aria-labelledby={`review-${review.id}`} key={review.id}>
            <h2 id={`review-${review.id}`}>{`Review ${index + 1}: ${segmentText(review)}`}</h2>
            <dl class="facts">
              <dt>Study</dt>
              <dd>{review.study_id}</dd>
              <dt>Testers asked for</dt>
              <dd>{review.requested_count}</dd>
              <dt>Testers available</dt>
              <dd>{review.available_count}</dd>
              <dt>Asked on</dt>
              <dd>{day(review.created_at)}</dd>
            </dl>
            <form method="post" action={capacityReviewPath(review.id)} novalidate>
              <CsrfField token={csrf} />
              <RadioGroup
                name={reviewField('decision', review.id)}
                legend={`Decision on review ${index + 1}`}
                value={values[reviewField('decision', review.id)]}
                error={errors[reviewField('decision', review.id)]}
                required
                choices={[
                  { value: 'approved', label: 'Approve' },
                  { value: 'rejected', label: 'Reject' },
                ]}
              />
              <TextField
                name={reviewField('adjustedCount', review.id)}
                label={`Testers review ${index + 1} is to hold (approvals only)`}
                type="number"
                min={0}
                max={review.requested_count}
                value={values[reviewField('adjustedCount', review.id)]}
                error={errors[reviewField('adjustedCount', review.id)]}
                hint={`Optional. Left empty: ${Math.min(review.available_count, review.requested_count)}, the testers available.`}
              />
              <TextArea
                name={reviewField('note', review.id)}
                label={`Note on review ${index + 1} for the team (optional)`}
                value={values[reviewField('note', review.id)]}
                error={errors[reviewField('note', review.id)]}
                maxLength={5000}
              />
              <button type="submit">{`Decide review ${index + 1}`}</button>
            </form>
          </section>
        ))
      ) : (
        <p>No capacity review is waiting.</p>
      )}
    </Layout>
  );
}

const ACTION: Readonly<Record<TesterList, { status: 'active' | 'suspended'; verb: string }>> = {
  pending: { status: 'active', verb: 'Approve' },
  active: { status: 'suspended', verb: 'Suspend' },
  suspended: { status: 'active', verb: 'Reinstate' },
};

/** `/admin/testers?status=`: testers of one status, each with the change an admin may make. */
export function TestersPage({
  csrf,
  viewer,
  notice,
  errors = {},
  values = {},
  list,
  testers,
}: PageBase & { list: TesterList; testers: readonly TesterListingRow[] }) {
  const action = ACTION[list];
  const labels = Object.fromEntries(testers.map((t) => [testerReasonField(t.id), `${t.email}, reason`]));
  return (
    <Layout title="Testers" viewer={viewer} csrf={csrf} notice={notice}>
      <ErrorSummary errors={errors} labels={labels} />
      <nav aria-label="Testers by status">
        <ul class="actions">
          {TESTER_LISTS.map((status) => (
            <li key={status}>
              <a
                href={`${TESTERS_PATH}?status=${status}`}
                aria-current={status === list ? 'page' : undefined}
              >
                {status[0]!.toUpperCase() + status.slice(1)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <h2>{`${list[0]!.toUpperCase() + list.slice(1)} testers`}</h2>
      {testers.length ? (
        testers.map((tester) => (
          <section class="finding" aria-labelledby={`tester-${tester.id}`} key={tester.id}>
            <h3 id={`tester-${tester.id}`}>
              {tester.display_name ? `${tester.display_name} (${tester.email})` : tester.email}
            </h3>
            <dl class="facts">
              <dt>Country</dt>
              <dd>{tester.country ?? 'Not given'}</dd>
              <dt>Confirmed sessions</dt>
              <dd>{tester.completed_sessions}</dd>
              <dt>Joined</dt>
              <dd>{day(tester.joined_at)}</dd>
            </dl>
            <form method="post" action={testerPath(tester.id)} novalidate>
              <CsrfField token={csrf} />
              <input type="hidden" name="status" value={action.status} />
              <input type="hidden" name="list" value={list} />
              <TextField
                name={testerReasonField(tester.id)}
                label={`Reason to ${action.verb.toLowerCase()} ${tester.email}`}
                value={values[testerReasonField(tester.id)]}
                error={errors[testerReasonField(tester.id)]}
                hint="Kept for audit."
                maxLength={2000}
                required
              />
              <button type="submit">{`${action.verb} ${tester.email}`}</button>
            </form>
          </section>
        ))
      ) : (
        <p>{`No ${list} tester.`}</p>
      )}
    </Layout>
  );
}
