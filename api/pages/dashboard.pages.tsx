import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { sessionsOfTester } from '../../db/repositories/sessions.ts';
import { listStudies } from '../../db/repositories/studies.ts';
import { day, Layout } from './layout.tsx';
import { QUIZ_EDITOR_PATH } from './quiz-editor-page.tsx';
import { reportPath } from './report-page.tsx';
import { TOKENS_PATH } from './tokens-page.tsx';
import { NEW_STUDY_PATH } from './new-study-page.tsx';
import { studyPath } from './study-page.tsx';
import type { PageRouter, SignedInRequest } from './page-routes.ts';
import { renderPage } from './render.ts';

const LIST_LIMIT = 50;

const REVIEW_LINK: Readonly<Record<string, string>> = {
  analyzed: 'Review the findings',
  confirmed: 'See your review',
};

async function testerSessionsTable({ db, request }: { db: Db; request: SignedInRequest }) {
  const sessions = await asUser(db, request.principal.claims, (tx) =>
    sessionsOfTester(tx, request.principal.claims.sub, LIST_LIMIT),
  );
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
            <td>{session.status}</td>
            <td>
              {REVIEW_LINK[session.status] ? (
                <a href={`/sessions/${session.id}/review`}>
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

async function businessStudiesTable({ db, request }: { db: Db; request: SignedInRequest }) {
  const { rows } = await asUser(db, request.principal.claims, (tx) =>
    listStudies(tx, { limit: LIST_LIMIT, offset: 0 }),
  );
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
export function mountDashboardPage(pages: PageRouter, db: Db): void {
  pages.signedIn('GET', '/dashboard', async (request) => {
    const { role } = request.viewer;
    const content =
      role === 'tester' ? (
        <>
          <p>
            Your profile, quiz, points and badges are on <a href="/profile">your profile page</a>; the studies
            offered to you, to accept or decline, on <a href="/offers">your offers page</a>.
          </p>
          <h2>Your sessions</h2>
          {await testerSessionsTable({ db, request })}
        </>
      ) : role === 'business' ? (
        <>
          <h2>Studies</h2>
          <ul>
            <li>
              <a href={NEW_STUDY_PATH}>Create a study</a>
            </li>
            <li>
              <a href={TOKENS_PATH}>API tokens</a> for your programs
            </li>
          </ul>
          {await businessStudiesTable({ db, request })}
        </>
      ) : (
        <ul>
          <li>
            <a href="/admin/capacity-reviews">Capacity reviews to decide</a>
          </li>
          <li>
            <a href="/admin/testers">Testers to approve, suspend or reinstate</a>
          </li>
          <li>
            <a href={QUIZ_EDITOR_PATH}>The qualification quiz</a>, to edit or publish anew
          </li>
        </ul>
      );
    renderPage(
      request.ctx,
      <Layout title="Dashboard" viewer={request.viewer} csrf={request.csrf}>
        {content}
      </Layout>,
    );
  });
}
