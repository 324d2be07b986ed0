import type { OutreachRow } from '../../../db/repositories/outreach-messages.ts';
import type { ProposalRow } from '../../../db/repositories/proposals.ts';
import {
  DASHBOARD_PATH,
  momentPath,
  outreachActionPath,
  proposalActionPath,
  reportPath,
  sessionRatingPath,
  studyCheckoutPath,
  studyReportPath,
} from '../paths.ts';
import { ErrorSummary, RadioGroup, TextArea, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, day, Layout, type Viewer } from '../shared/layout.tsx';
import { criterionText, SEVERITY_TEXT, studyReportWaiting } from '../shared/report-text.ts';
import { TaskResultCharts } from '../shared/task-results.tsx';
import { PrototypeAudit } from '../shared/prototype-audit.tsx';
import {
  bodyField,
  commentField,
  ratingField,
  reasonField,
  subjectField,
  type StudyPageData,
} from './data.ts';
import { formatMinorUnits, toMinorUnits, UnrepresentableAmount } from '../../../lib/money.ts';

export interface StudyPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly data: StudyPageData;
  readonly notice?: string | undefined;
  readonly errors?: FieldErrors;
  /** What a refused form had in its fields, to show them again. */
  readonly values?: Readonly<Record<string, string>>;
}

const shortId = (id: string) => id.slice(0, 8);

function Progress({ data }: { data: StudyPageData }) {
  const { progress, study } = data;
  return (
    <section aria-labelledby="progress-title">
      <h2 id="progress-title">Recruitment</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>{study.status}</dd>
        <dt>Sessions confirmed</dt>
        <dd>{`${progress.sessions.confirmed} of ${study.tester_count}`}</dd>
        <dt>Sessions under way or done</dt>
        <dd>{progress.sessions.live}</dd>
        <dt>Proposals to decide</dt>
        <dd>{progress.proposals.pending}</dd>
        <dt>Proposals approved, skipped</dt>
        <dd>{`${progress.proposals.accepted}, ${progress.proposals.skipped}`}</dd>
        <dt>Messages to review</dt>
        <dd>{progress.outreach.pending}</dd>
        <dt>Offers sent</dt>
        <dd>{progress.outreach.sent}</dd>
      </dl>
    </section>
  );
}

function ProposalItem({
  csrf,
  proposal,
  index,
  values,
  errors,
}: {
  csrf: string;
  proposal: ProposalRow;
  index: number;
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
}) {
  const who = `tester ${index + 1}`;
  return (
    <section class="finding" aria-labelledby={`proposal-${proposal.id}`}>
      <h3
        id={`proposal-${proposal.id}`}
      >{`Proposal ${index + 1}: tester ${shortId(proposal.tester_id)}, match ${Number(proposal.match_score).toFixed(2)}`}</h3>
      <ul>
        {proposal.match_reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <div class="actions">
        <form method="post" action={proposalActionPath(proposal.study_id, proposal.id, 'approve')}>
          <CsrfField token={csrf} />
          <button type="submit">
            Approve and draft the offer <span class="visually-hidden">for {who}</span>
          </button>
        </form>
      </div>
      <form method="post" action={proposalActionPath(proposal.study_id, proposal.id, 'skip')}>
        <CsrfField token={csrf} />
        <TextField
          name={reasonField(proposal.id)}
          label={`Why skip ${who}? (optional)`}
          value={values[reasonField(proposal.id)]}
          error={errors[reasonField(proposal.id)]}
          maxLength={2000}
        />
        <button type="submit" class="secondary">
          Skip <span class="visually-hidden">{who}</span>
        </button>
      </form>
    </section>
  );
}

function OutreachItem({
  csrf,
  message,
  index,
  values,
  errors,
}: {
  csrf: string;
  message: OutreachRow;
  index: number;
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
}) {
  const which = `message ${index + 1}`;
  const channel = message.channel === 'email' ? 'Email' : 'Chat message';
  return (
    <section class="finding" aria-labelledby={`message-${message.id}`}>
      <h3 id={`message-${message.id}`}>{`Message ${index + 1}: ${channel} to ${message.recipient_email}`}</h3>
      <p class="hint">
        {'Drafted '}
        {day(message.generated_at)}
        {message.used_fallback ? ' by the local writer (no AI provider answered)' : ''}
      </p>
      <form method="post" action={outreachActionPath(message.study_id, message.id, 'edit')}>
        <CsrfField token={csrf} />
        {message.channel === 'email' ? (
          <TextField
            name={subjectField(message.id)}
            label={`Subject of ${which}`}
            value={values[subjectField(message.id)] ?? message.subject ?? ''}
            error={errors[subjectField(message.id)]}
            maxLength={500}
            required
          />
        ) : null}
        <TextArea
          name={bodyField(message.id)}
          label={`Text of ${which}`}
          value={values[bodyField(message.id)] ?? message.body}
          error={errors[bodyField(message.id)]}
          maxLength={10000}
          required
        />
        <div class="actions">
          <button type="submit" class="secondary">
            Save changes <span class="visually-hidden">to {which}</span>
          </button>
          {/* The same form: what is approved is what the box shows, saved first when it was changed. */}
          <button type="submit" formAction={outreachActionPath(message.study_id, message.id, 'approve')}>
            Approve and send <span class="visually-hidden">{which}</span>
          </button>
        </div>
      </form>
      <form method="post" action={outreachActionPath(message.study_id, message.id, 'reject')}>
        <CsrfField token={csrf} />
        <TextField
          name={reasonField(message.id)}
          label={`Why reject ${which}? (optional)`}
          value={values[reasonField(message.id)]}
          error={errors[reasonField(message.id)]}
          maxLength={2000}
        />
        <button type="submit" class="secondary">
          Reject <span class="visually-hidden">{which}</span>
        </button>
      </form>
    </section>
  );
}

/** Confirmed sessions the business has not rated: each gets a rating form (once, as the API allows). */
function RatingForms({
  csrf,
  data,
  values,
  errors,
}: {
  csrf: string;
  data: StudyPageData;
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
}) {
  const unrated = data.sessions.filter(
    (session) => session.status === 'confirmed' && session.business_rating === null,
  );
  return (
    <>
      {unrated.map((session) => (
        <form method="post" action={sessionRatingPath(data.study.id, session.id)} key={session.id} novalidate>
          <CsrfField token={csrf} />
          <RadioGroup
            name={ratingField(session.id)}
            legend={`Your rating of session ${shortId(session.id)}: 1 is poor, 5 is excellent`}
            choices={[1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: String(n) }))}
            value={values[ratingField(session.id)]}
            error={errors[ratingField(session.id)]}
            required
          />
          <TextArea
            name={commentField(session.id)}
            label={`Comment on session ${shortId(session.id)} (optional)`}
            value={values[commentField(session.id)]}
            error={errors[commentField(session.id)]}
            maxLength={2000}
          />
          <button type="submit">{`Rate session ${shortId(session.id)}`}</button>
        </form>
      ))}
    </>
  );
}

/** Tester count x compensation, as checkout charges it; none when the amount cannot be charged. */
function checkoutTotal({ study }: StudyPageData): string | undefined {
  try {
    const unit = toMinorUnits(study.compensation_amount, study.compensation_currency, 'charge');
    return formatMinorUnits(unit * study.tester_count, study.compensation_currency);
  } catch (error) {
    if (error instanceof UnrepresentableAmount) return undefined;
    throw error;
  }
}

/** A draft study is paid for before recruitment starts: the form leads to the provider's checkout. */
function Payment({ csrf, data }: { csrf: string; data: StudyPageData }) {
  const { study } = data;
  const total = checkoutTotal(data);
  return (
    <section aria-labelledby="payment-title">
      <h2 id="payment-title">Payment</h2>
      {study.paid_at ? (
        <p>Payment received. The study becomes active as soon as the payment provider confirms it.</p>
      ) : (
        <>
          <p>
            {`This study is a draft. Recruitment starts once it is paid: ${study.tester_count} ` +
              `${study.tester_count === 1 ? 'tester' : 'testers'} at ${study.compensation_amount} ` +
              `${study.compensation_currency} each` +
              (total ? `, ${total} in all.` : '.')}
          </p>
          <form method="post" action={studyCheckoutPath(study.id)}>
            <CsrfField token={csrf} />
            <button type="submit">Pay by checkout</button>
          </form>
        </>
      )}
    </section>
  );
}

function Sessions({ data }: { data: StudyPageData }) {
  if (!data.sessions.length) return <p>No sessions yet.</p>;
  return (
    <table>
      <caption class="visually-hidden">Sessions of this study, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">Tester</th>
          <th scope="col">Started</th>
          <th scope="col">Status</th>
          <th scope="col">Your rating</th>
          <th scope="col">Report</th>
        </tr>
      </thead>
      <tbody>
        {data.sessions.map((session) => (
          <tr key={session.id}>
            <td>{shortId(session.id)}</td>
            <td>{shortId(session.tester_id)}</td>
            <td>{day(session.started_at)}</td>
            <td>{session.status}</td>
            <td>{session.business_rating === null ? 'None' : `${session.business_rating} of 5`}</td>
            <td>
              {session.report_id ? (
                <a href={reportPath(session.report_id)}>
                  Read<span class="visually-hidden">{` the report of session ${shortId(session.id)}`}</span>
                </a>
              ) : (
                'Not yet'
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The most severe confirmed findings of the recorded sessions, each with the replay of its moment
 * (pages/moments, framed): what the study is bought for, seen without opening each report.
 */
function FindingMoments({ data }: { data: StudyPageData }) {
  if (!data.moments.length)
    return (
      <p>
        No confirmed finding of a recorded session yet. Findings appear here once a tester confirms them, with
        a replay of their moment when the study records the screen.
      </p>
    );
  return (
    <>
      <p>
        The most severe confirmed findings of the sessions recorded, each with a replay from 5 seconds before
        its moment to 5 seconds after. Each session's report has all of its findings.
      </p>
      {data.moments.map((moment, index) => {
        const at = moment.noted_at ?? moment.created_at;
        const title = `Finding ${index + 1}, session ${shortId(moment.session_id)}`;
        return (
          <article key={moment.id} class="panel" aria-labelledby={`moment-${moment.id}`}>
            <h3 id={`moment-${moment.id}`}>{title}</h3>
            <p>{moment.content}</p>
            <dl class="facts">
              <dt>Severity</dt>
              <dd>{moment.severity ? SEVERITY_TEXT[moment.severity] : 'Not rated'}</dd>
              <dt>WCAG criterion</dt>
              <dd>{criterionText(moment.wcag_criterion, moment.wcag_level)}</dd>
              <dt>When</dt>
              <dd>
                <time
                  dateTime={at.toISOString()}
                >{`${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`}</time>
              </dd>
            </dl>
            <iframe
              class="moment-player"
              src={momentPath(moment.session_id, moment.id)}
              title={`Replay of the moment of ${title.toLowerCase()}`}
              loading="lazy"
            />
          </article>
        );
      })}
    </>
  );
}

/** `/dashboard/jobs/:id`: a study's recruitment, its proposals and its outreach queue, for its business. */
export function StudyPage({ csrf, viewer, data, notice, errors = {}, values = {} }: StudyPageProps) {
  const labels: Record<string, string> = {};
  data.outreach.forEach((message, index) => {
    labels[subjectField(message.id)] = `Message ${index + 1}, subject`;
    labels[bodyField(message.id)] = `Message ${index + 1}, text`;
    labels[reasonField(message.id)] = `Message ${index + 1}, reason`;
  });
  data.sessions.forEach((session) => {
    labels[ratingField(session.id)] = `Session ${shortId(session.id)}, rating`;
    labels[commentField(session.id)] = `Session ${shortId(session.id)}, comment`;
  });
  data.proposals.forEach(
    (proposal, index) => (labels[reasonField(proposal.id)] = `Proposal ${index + 1}, reason`),
  );
  return (
    <Layout title={data.study.title} viewer={viewer} csrf={csrf} notice={notice}>
      <ErrorSummary errors={errors} labels={labels} />
      <p>
        <a href={DASHBOARD_PATH}>All studies</a>
      </p>
      {data.study.status === 'draft' && viewer.role === 'business' ? (
        <Payment csrf={csrf} data={data} />
      ) : null}
      <Progress data={data} />
      <section aria-labelledby="proposals-title">
        <h2 id="proposals-title">Proposals to decide</h2>
        {data.proposals.length ? (
          <>
            <p>
              Matching proposes these testers, best match first. Approving one drafts an offer message for you
              to review below; skipping one frees the place for the next.
            </p>
            {data.proposals.map((proposal, index) => (
              <ProposalItem
                key={proposal.id}
                csrf={csrf}
                proposal={proposal}
                index={index}
                values={values}
                errors={errors}
              />
            ))}
          </>
        ) : (
          <p>No proposal waits for a decision.</p>
        )}
      </section>
      <section aria-labelledby="outreach-title" id="outreach">
        <h2 id="outreach-title">Outreach messages to review</h2>
        {data.outreach.length ? (
          <>
            <p>
              Nothing reaches a tester until a person approves it. Edit a message and save it before approving
              it.
            </p>
            {data.outreach.map((message, index) => (
              <OutreachItem
                key={message.id}
                csrf={csrf}
                message={message}
                index={index}
                values={values}
                errors={errors}
              />
            ))}
          </>
        ) : (
          <p>No message waits for review.</p>
        )}
      </section>
      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <Sessions data={data} />
        {viewer.role === 'business' ? (
          <RatingForms csrf={csrf} data={data} values={values} errors={errors} />
        ) : null}
      </section>
      <section aria-labelledby="moments-title">
        <h2 id="moments-title">Findings to watch</h2>
        <FindingMoments data={data} />
      </section>
      <section aria-labelledby="task-results-title">
        <h2 id="task-results-title">Task results</h2>
        <p>
          Live from the attempts so far: could testers do each task, how long it took those who did, and how
          easy they found it. The study report splits them by kind of tester.
        </p>
        {data.results.tasks.length ? (
          <TaskResultCharts tasks={data.results.tasks} idPrefix="study" />
        ) : (
          <p>This study has no tasks.</p>
        )}
      </section>
      <section aria-labelledby="prototype-audit-title">
        <h2 id="prototype-audit-title">Accessibility audit of the prototype</h2>
        <PrototypeAudit audit={data.audit} study={data.study} />
      </section>
      <section aria-labelledby="study-report-title">
        <h2 id="study-report-title">Study report</h2>
        {data.studyReport === 'complete' ? (
          <p>
            <a href={studyReportPath(data.study.id)}>Read the study report</a>: the barriers across every
            session, by tester profile.
          </p>
        ) : (
          <p>{studyReportWaiting(data.studyReport, null)}</p>
        )}
      </section>
    </Layout>
  );
}
