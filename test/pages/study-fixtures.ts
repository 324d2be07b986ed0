import assert from 'node:assert/strict';
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
): Promise<{ jobId: string; proposals: Proposal[] }> {
  for (let i = 0; i < testers; i++) await qualifiedTester(country);
  const jobId = await activeStudy(api, business, {
    ...validStudyBody(),
    abTest: undefined,
    targeting: { countries: [country], devices: ['desktop'], testerCount: 1 },
  });
  let proposals: Proposal[] = [];
  await waitFor(async () => {
    const listed = await api.request('GET', `/api/outreach/proposals?jobId=${jobId}&status=pending`, {
      token: business,
    });
    proposals = listed.body.data as Proposal[];
    return proposals.length === testers;
  });
  assert.equal(proposals.length, testers);
  return { jobId, proposals };
}
