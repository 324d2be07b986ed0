import { z } from 'zod';
import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { latestStudyAgentJob, type AgentJobRow } from '../../../db/repositories/agent-jobs.ts';
import { listPendingOutreach, type OutreachRow } from '../../../db/repositories/outreach-messages.ts';
import { findProposal, listProposals, type ProposalRow } from '../../../db/repositories/proposals.ts';
import { findSession } from '../../../db/repositories/sessions.ts';
import { recordedFindingsOfStudy } from '../../../db/repositories/session-notes.ts';
import { findStudy, type StudyRow } from '../../../db/repositories/studies.ts';
import {
  outreachTextOf,
  sessionsOfStudy,
  studyProgress,
  type StudyProgress,
} from '../../../db/repositories/study-progress.ts';
import type { SessionPrincipal } from '../../../commands/principal.ts';
import { resultsOfStudy } from '../../../commands/studies/study-results.ts';
import { auditOfStudy, type StudyAudit } from '../../../commands/studies/study-audit.ts';
import { notFound } from '../../../lib/errors.ts';
import type { SignedInRequest } from '../shared/page-routes.ts';

export const studyParams = z.object({ id: z.uuid() });
export const itemParams = studyParams.extend({ itemId: z.uuid() });

// The study page's field names carry the id of the proposal, message or session they are about.
export const subjectField = (id: string) => `subject-${id}`;
export const bodyField = (id: string) => `body-${id}`;
export const reasonField = (id: string) => `reason-${id}`;
export const ratingField = (id: string) => `rating-${id}`;
export const commentField = (id: string) => `comment-${id}`;

/** One page shows at most this many of each list; the API pages through the rest. */
const STUDY_PAGE_LIST_LIMIT = 100;
/** Players on the study page: the most severe findings; each session's report has the rest. */
export const STUDY_PAGE_PLAYERS = 10;

export interface StudyPageData {
  readonly study: StudyRow;
  readonly progress: StudyProgress;
  readonly proposals: readonly ProposalRow[];
  readonly outreach: readonly OutreachRow[];
  readonly sessions: Awaited<ReturnType<typeof sessionsOfStudy>>;
  /** The status of the study report's latest job (Agent 4), or null before the first. */
  readonly studyReport: AgentJobRow['status'] | null;
  /** Per-task results so far (GET /api/jobs/:id/results). */
  readonly results: Awaited<ReturnType<typeof resultsOfStudy>>;
  /** Confirmed findings whose moment was recorded, most severe first (at most STUDY_PAGE_PLAYERS). */
  readonly moments: Awaited<ReturnType<typeof recordedFindingsOfStudy>>;
  /** The audit of the study's prototype beside its testers' findings; undefined without one. */
  readonly audit: StudyAudit | undefined;
}

/**
 * A study as its organization (or an admin) sees it on its page: row-level security decides, and a
 * tester, who may read a study they test, is not shown the business's page.
 */
async function loadStudyPage(
  db: Db,
  principal: SessionPrincipal,
  studyId: string,
): Promise<StudyPageData | undefined> {
  if (principal.claims.role === 'tester') return undefined;
  const page = await asUser(db, principal.claims, async (tx) => {
    const record = await findStudy(tx, studyId);
    if (!record) return undefined;
    const page = { limit: STUDY_PAGE_LIST_LIMIT, offset: 0 };
    const progress = await studyProgress(tx, studyId);
    const proposals = await listProposals(tx, { studyId, status: 'pending', ...page });
    const outreach = await listPendingOutreach(tx, { studyId, ...page });
    const sessions = await sessionsOfStudy(tx, studyId, STUDY_PAGE_LIST_LIMIT);
    const studyReport = (await latestStudyAgentJob(tx, studyId, 'agent4'))?.status ?? null;
    const moments = await recordedFindingsOfStudy(tx, studyId, STUDY_PAGE_PLAYERS);
    const audit = await auditOfStudy(tx, studyId);
    return {
      record,
      study: record.study,
      progress,
      proposals: proposals.rows,
      outreach: outreach.rows,
      sessions,
      studyReport,
      moments,
      audit,
    };
  });
  if (!page) return undefined;
  const { record, ...shown } = page;
  return { ...shown, results: await resultsOfStudy({ db, now: () => new Date() }, record) };
}

/** The page's study, or the 404 page. */
export async function studyOf(db: Db, request: SignedInRequest): Promise<StudyPageData> {
  const params = studyParams.safeParse(request.ctx.params);
  const data = params.success ? await loadStudyPage(db, request.principal, params.data.id) : undefined;
  if (!data) throw notFound('Study');
  return data;
}

/** What an action of the study page is about. */
export type StudyItem = 'proposal' | 'outreach' | 'session';

/** The study a proposal, an outreach message or a session belongs to, as the caller may see it. */
export function studyOfItem(db: Db, principal: SessionPrincipal, item: StudyItem, id: string) {
  return asUser(db, principal.claims, async (tx) =>
    item === 'proposal'
      ? (await findProposal(tx, id))?.study_id
      : item === 'session'
        ? (await findSession(tx, id))?.study_id
        : (await outreachTextOf(tx, id))?.study_id,
  );
}

/** An outreach message's text as stored. */
export const storedText = (db: Db, principal: SessionPrincipal, id: string) =>
  asUser(db, principal.claims, (tx) => outreachTextOf(tx, id));
