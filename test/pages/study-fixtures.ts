import assert from 'node:assert/strict';
import {
  activeStudy,
  analyzedSessionWithTasks,
  businessWithStudy,
  completedReportJob,
  waitFor,
  type TesterSession,
} from '../sessions/fixtures.ts';
import type { TestApi } from '../support/api.ts';
import { validStudyBody } from '../support/study-body.ts';
import { qualifiedTester } from '../outreach/fixtures.ts';

export interface Proposal {
  readonly proposalId: string;
  readonly testerId: string;
}

/**
 * An active study recruiting `testers` qualified testers of its own in `country` (each suite uses
 * a country no other test recruits in), once matching has proposed every one of them.
 */
export async function studyWithProposals(
  api: TestApi,
  business: string,
  country: string,
  testers: number,
  /** More than `testers` leaves the country short: a capacity review waits for an admin. */
  testerCount = testers,
): Promise<{ jobId: string; proposals: Proposal[] }> {
  const mine: string[] = [];
  for (let i = 0; i < testers; i++) mine.push(await qualifiedTester(country));
  const jobId = await activeStudy(api, business, {
    ...validStudyBody(),
    abTest: undefined,
    targeting: { countries: [country], devices: ['desktop'], testerCount },
  });
  let proposals: Proposal[] = [];
  await waitFor(async () => {
    const listed = await api.request('GET', `/api/outreach/proposals?jobId=${jobId}&status=pending`, {
      token: business,
    });
    proposals = (listed.body.data as Proposal[]).filter((proposal) => mine.includes(proposal.testerId));
    return proposals.length === testers;
  });
  return { jobId, proposals };
}

/** A study of one tester whose session is confirmed, with its tester report and its study report written. */
export async function reportedStudy(api: TestApi): Promise<{
  business: string;
  jobId: string;
  session: TesterSession;
  reportId: string;
}> {
  const { business, jobId } = await businessWithStudy(api, 1);
  // The tester did both tasks, so the pages show task results and each finding's task.
  const session = await analyzedSessionWithTasks(api, business, jobId);
  const confirmed = await api.request('POST', `/api/sessions/${session.sessionId}/confirm`, {
    body: { rating: 4 },
    token: session.testerToken,
  });
  assert.equal(confirmed.status, 200, confirmed.text);
  const { reportId } = await completedReportJob(api, session.sessionId, session.testerToken);
  await waitFor(async () => {
    const aggregate = await api.request('GET', `/api/reports/job/${jobId}`, { token: business });
    return aggregate.status === 200 && (aggregate.body.data as { report: unknown }).report !== null;
  });
  return { business, jobId, session, reportId: reportId! };
}
