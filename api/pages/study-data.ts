import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { latestStudyAgentJob, type AgentJobRow } from '../../db/repositories/agent-jobs.ts';
import { listPendingOutreach, type OutreachRow } from '../../db/repositories/outreach-messages.ts';
import { listProposals, type ProposalRow } from '../../db/repositories/proposals.ts';
import { findStudy, type StudyRow } from '../../db/repositories/studies.ts';
import { sessionsOfStudy, studyProgress, type StudyProgress } from '../../db/repositories/study-progress.ts';
import type { SessionPrincipal } from '../auth/principal.ts';

/** One page shows at most this many of each list; the API pages through the rest. */
export const STUDY_PAGE_LIST_LIMIT = 100;

export interface StudyPageData {
  readonly study: StudyRow;
  readonly progress: StudyProgress;
  readonly proposals: readonly ProposalRow[];
  readonly outreach: readonly OutreachRow[];
  readonly sessions: Awaited<ReturnType<typeof sessionsOfStudy>>;
  /** The status of the study report's latest job (Agent 4), or null before the first. */
  readonly studyReport: AgentJobRow['status'] | null;
}

/**
 * A study as its organization (or an admin) sees it on its page: row-level security decides, and a
 * tester, who may read a study they test, is not shown the business's page.
 */
export async function loadStudyPage(
  db: Db,
  principal: SessionPrincipal,
  studyId: string,
): Promise<StudyPageData | undefined> {
  if (principal.claims.role === 'tester') return undefined;
  return asUser(db, principal.claims, async (tx) => {
    const record = await findStudy(tx, studyId);
    if (!record) return undefined;
    const page = { limit: STUDY_PAGE_LIST_LIMIT, offset: 0 };
    const progress = await studyProgress(tx, studyId);
    const proposals = await listProposals(tx, { studyId, status: 'pending', ...page });
    const outreach = await listPendingOutreach(tx, { studyId, ...page });
    const sessions = await sessionsOfStudy(tx, studyId, STUDY_PAGE_LIST_LIMIT);
    const studyReport = (await latestStudyAgentJob(tx, studyId, 'agent4'))?.status ?? null;
    return {
      study: record.study,
      progress,
      proposals: proposals.rows,
      outreach: outreach.rows,
      sessions,
      studyReport,
    };
  });
}
