import {
  CAPACITY_REVIEWS_PATH,
  NEW_STUDY_PATH,
  OFFERS_PATH,
  PROFILE_PATH,
  QUIZ_EDITOR_PATH,
  reportPath,
  reviewPath,
  sessionStartPath,
  studyPath,
  TESTERS_PATH,
  TOKENS_PATH,
  WEBHOOKS_PATH,
  AUDITS_PATH,
} from '../paths.ts';
import { day, Layout, type Viewer } from '../shared/layout.tsx';
import type { DashboardData, StudyRows, TesterSessionRows } from './data.ts';

const REVIEW_LINK: Readonly<Record<string, string>> = {
  analyzed: 'Review the findings',
  confirmed: 'See your review',
};

function TesterSessions({ sessions }: { sessions: TesterSessionRows }) {
  if (!sessions.length) return <p>You have no sessions yet. Offers of studies reach you by email or chat.</p>;
  return (
    <table>
      <caption class="visually-hidden">Your sessions, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Study</th>
          <th scope="col">Started</th>
          <th scope="col">Status</th>
          <th scope="col">Findings</th>
          <th scope="col">Report</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <tr key={session.id}>
            <td>{session.study_title}</td>
            <td>{day(session.started_at)}</td>
            <td>
              {session.status === 'active' || session.status === 'paused' ? (
                <>
                  {`${session.status}: `}
                  <a href={sessionStartPath(session.id)}>
                    start it<span class="visually-hidden">{` (${session.study_title})`}</span>
                  </a>
                </>
              ) : (
                session.status
              )}
            </td>
            <td>
              {REVIEW_LINK[session.status] ? (
                <a href={reviewPath(session.id)}>
                  {REVIEW_LINK[session.status]}
                  <span class="visually-hidden">{` for ${session.study_title}`}</span>
                </a>
              ) : (
                'Not ready'
              )}
            </td>
            <td>
              {session.report_id ? (
                <a href={reportPath(session.report_id)}>
                  Read your report<span class="visually-hidden">{` for ${session.study_title}`}</span>
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

function BusinessStudies({ rows }: { rows: StudyRows }) {
  if (!rows.length) return <p>Your organization has no studies yet.</p>;
  return (
    <table>
      <caption class="visually-hidden">Your organization's studies, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Study</th>
          <th scope="col">Created</th>
          <th scope="col">Status</th>
          <th scope="col">Testers</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((study) => (
          <tr key={study.id}>
            <td>
              <a href={studyPath(study.id)}>{study.title}</a>
            </td>
            <td>{day(study.created_at)}</td>
            <td>{study.status}</td>
            <td>{study.tester_count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `/dashboard`, where sign-in lands: what needs the person, by role. */
export function DashboardPage({ csrf, viewer, data }: { csrf: string; viewer: Viewer; data: DashboardData }) {
  return (
    <Layout title="Dashboard" viewer={viewer} csrf={csrf}>
      {data.role === 'tester' ? (
        <>
          <p>
            Your profile, quiz, points and badges are on <a href={PROFILE_PATH}>your profile page</a>; the
            studies offered to you, to accept or decline, on <a href={OFFERS_PATH}>your offers page</a>.
          </p>
          <h2>Your sessions</h2>
          <TesterSessions sessions={data.sessions} />
        </>
      ) : data.role === 'business' ? (
        <>
          <h2>Studies</h2>
          <ul>
            <li>
              <a href={NEW_STUDY_PATH}>Create a study</a>
            </li>
            <li>
              <a href={AUDITS_PATH}>Accessibility audits</a>: audit a page now and follow its score over time
            </li>
            <li>
              <a href={TOKENS_PATH}>API tokens</a> for your programs
            </li>
            <li>
              <a href={WEBHOOKS_PATH}>Webhooks</a>: your systems hear about your studies as they happen
            </li>
          </ul>
          <BusinessStudies rows={data.studies} />
        </>
      ) : (
        <ul>
          <li>
            <a href={CAPACITY_REVIEWS_PATH}>Capacity reviews to decide</a>
          </li>
          <li>
            <a href={TESTERS_PATH}>Testers to approve, suspend or reinstate</a>
          </li>
          <li>
            <a href={QUIZ_EDITOR_PATH}>The qualification quiz</a>, to edit or publish anew
          </li>
        </ul>
      )}
    </Layout>
  );
}
