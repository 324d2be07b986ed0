import { activeStudy, waitFor } from '../sessions/fixtures.ts';
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
