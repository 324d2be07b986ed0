import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { sessionsOfTester } from '../../../db/repositories/sessions.ts';
import { listStudies } from '../../../db/repositories/studies.ts';
import type { SessionPrincipal } from '../../../commands/principal.ts';

const LIST_LIMIT = 50;

export type TesterSessionRows = Awaited<ReturnType<typeof sessionsOfTester>>;
export type StudyRows = Awaited<ReturnType<typeof listStudies>>['rows'];

/** What the dashboard shows, by role: a tester's sessions, a business's studies, an admin's links. */
export type DashboardData =
  | { readonly role: 'tester'; readonly sessions: TesterSessionRows }
  | { readonly role: 'business'; readonly studies: StudyRows }
  | { readonly role: 'admin' };

/** The newest of the person's sessions or of their organization's studies, as row-level security allows. */
export async function loadDashboard(db: Db, principal: SessionPrincipal): Promise<DashboardData> {
  const { claims } = principal;
  if (claims.role === 'tester') {
    const sessions = await asUser(db, claims, (tx) => sessionsOfTester(tx, claims.sub, LIST_LIMIT));
    return { role: 'tester', sessions };
  }
  if (claims.role === 'business') {
    const { rows } = await asUser(db, claims, (tx) =>
      listStudies(tx, { limit: LIST_LIMIT, offset: 0 }, claims),
    );
    return { role: 'business', studies: rows };
  }
  return { role: 'admin' };
}
