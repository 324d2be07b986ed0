import type { NoteRow } from '../../../db/repositories/session-notes.ts';
import { momentPath, reviewPath } from '../paths.ts';
import { ErrorSummary, RadioGroup, TextArea, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, Layout, type Viewer } from '../shared/layout.tsx';
import { criterionText, SEVERITY_TEXT } from '../shared/report-text.ts';
import { annotationField, decisionField, momentOf, sessionOffset, type ReviewData } from './data.ts';

const RATING_CHOICES = [1, 2, 3, 4, 5].map((n) => ({
  value: String(n),
  label: `${n}${n === 1 ? ' (poor)' : n === 5 ? ' (excellent)' : ''}`,
}));

export interface ReviewPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly review: ReviewData;
  readonly values?: Readonly<Record<string, string>>;
  readonly errors?: FieldErrors;
  readonly notice?: string | undefined;
}

function FindingFacts({
  note,
  start,
  taskName,
}: {
  note: NoteRow;
  start: Date;
  taskName: string | undefined;
}) {
  const at = momentOf(note);
  return (
    <dl class="facts">
      {taskName ? (
        <>
          <dt>Task</dt>
          <dd>{taskName}</dd>
        </>
      ) : null}
      <dt>Severity</dt>
      <dd>{note.severity ? SEVERITY_TEXT[note.severity] : 'Not rated'}</dd>
      <dt>WCAG criterion</dt>
      <dd>{criterionText(note.wcag_criterion, note.wcag_level)}</dd>
      <dt>When</dt>
      <dd>
        {`${sessionOffset(start, at)} into the session (`}
        <time dateTime={at.toISOString()}>{at.toISOString().slice(11, 19)} UTC</time>)
      </dd>
    </dl>
  );
}

const findingTitle = (note: NoteRow, index: number) => `${note.pattern ? 'Pattern' : 'Finding'} ${index + 1}`;

/** The replay of the finding's moment, framed (pages/moments), when the session was recorded. */
function FindingReplay({ review, note, index }: { review: ReviewData; note: NoteRow; index: number }) {
  if (!review.recorded || note.pattern) return null;
  return (
    <iframe
      class="moment-player"
      src={momentPath(review.session.id, note.id)}
      title={`Replay of the moment of ${findingTitle(note, index).toLowerCase()}`}
      loading="lazy"
    />
  );
}

function ReviewForm({ csrf, review, values = {}, errors = {} }: ReviewPageProps) {
  const start = review.session.started_at;
  const labels: Record<string, string> = { rating: 'Rating', comment: 'Comment' };
  review.findings.forEach((note, index) => {
    labels[decisionField(note)] = `${findingTitle(note, index)}, decision`;
    labels[annotationField(note)] = `${findingTitle(note, index)}, your note`;
  });
  return (
    <>
      <ErrorSummary errors={errors} labels={labels} />
      <p>
        The AI found what follows in your session. For each finding, confirm it if it is right or reject it if
        it is not, and add a note if you want. Rejected findings never reach a report. Then rate the session
        and send your review once: it confirms the session and releases your payment.
      </p>
      <form method="post" action={reviewPath(review.session.id)} novalidate>
        <CsrfField token={csrf} />
        {review.findings.length ? (
          review.findings.map((note, index) => (
            <section class="finding" aria-labelledby={`title-${note.id}`} key={note.id}>
              <h2 id={`title-${note.id}`}>{findingTitle(note, index)}</h2>
              <p>{note.content}</p>
              <FindingFacts
                note={note}
                start={start}
                taskName={note.task_id ? review.taskNames.get(note.task_id) : undefined}
              />
              <FindingReplay review={review} note={note} index={index} />
              <RadioGroup
                name={decisionField(note)}
                legend={`Is ${findingTitle(note, index).toLowerCase()} right?`}
                value={values[decisionField(note)] ?? 'confirmed'}
                error={errors[decisionField(note)]}
                choices={[
                  { value: 'confirmed', label: 'Confirm' },
                  { value: 'rejected', label: 'Reject' },
                ]}
              />
              <TextArea
                name={annotationField(note)}
                label={`Your note on ${findingTitle(note, index).toLowerCase()} (optional)`}
                value={values[annotationField(note)]}
                error={errors[annotationField(note)]}
                maxLength={5000}
              />
            </section>
          ))
        ) : (
          <p class="panel">The AI found no problems in this session.</p>
        )}
        <h2>Your rating of the session</h2>
        <RadioGroup
          name="rating"
          legend="How was the session? 1 is poor, 5 is excellent"
          value={values.rating}
          error={errors.rating}
          choices={RATING_CHOICES}
          required
        />
        <TextArea
          name="comment"
          label="Comment (optional)"
          value={values.comment}
          error={errors.comment}
          maxLength={5000}
        />
        <button type="submit">Send my review and confirm the session</button>
      </form>
    </>
  );
}

function SentReview({ review }: { review: ReviewData }) {
  const { session } = review;
  const start = session.started_at;
  return (
    <>
      <p>
        You confirmed this session
        {session.confirmed_at ? (
          <>
            {' on '}
            <time dateTime={session.confirmed_at.toISOString()}>
              {session.confirmed_at.toISOString().slice(0, 10)}
            </time>
          </>
        ) : null}
        . This is what you sent; it cannot be changed.
      </p>
      <dl class="facts">
        <dt>Your rating</dt>
        <dd>{session.rating === null ? 'None' : `${session.rating} of 5`}</dd>
        <dt>Your comment</dt>
        <dd>{session.rating_comment ?? 'None'}</dd>
      </dl>
      {review.findings.map((note, index) => (
        <section class="finding" aria-labelledby={`title-${note.id}`} key={note.id}>
          <h2
            id={`title-${note.id}`}
          >{`${findingTitle(note, index)}: ${note.decision === 'rejected' ? 'rejected' : 'confirmed'}`}</h2>
          <p>{note.content}</p>
          <FindingFacts
            note={note}
            start={start}
            taskName={note.task_id ? review.taskNames.get(note.task_id) : undefined}
          />
          {note.annotation ? <p>{`Your note: ${note.annotation}`}</p> : null}
          <FindingReplay review={review} note={note} index={index} />
        </section>
      ))}
    </>
  );
}

const WAITING: Readonly<Record<string, string>> = {
  active:
    'Your session is still running. Its findings appear here once it is complete and analysed; we email you then.',
  paused:
    'Your session is paused. Its findings appear here once it is complete and analysed; we email you then.',
  completed: 'Your session is complete and waits for its analysis. We email you when the findings are ready.',
  analyzing: 'The AI is analysing your session now. We email you when the findings are ready.',
  cancelled: 'This session was cancelled: there is nothing to review.',
};

/** `/sessions/:id/review`: the human-in-the-loop gate as a page. */
export function ReviewPage(props: ReviewPageProps) {
  const { review } = props;
  const status = review.session.status;
  return (
    <Layout
      title="Review your session's findings"
      viewer={props.viewer}
      csrf={props.csrf}
      notice={props.notice}
    >
      <p class="panel">{`Study: ${review.studyTitle}`}</p>
      {status === 'analyzed' ? (
        <ReviewForm {...props} />
      ) : status === 'confirmed' ? (
        <SentReview review={review} />
      ) : (
        <p>{WAITING[status] ?? `The session is ${status}.`}</p>
      )}
    </Layout>
  );
}
