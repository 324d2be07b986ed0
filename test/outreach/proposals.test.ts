import assert from 'node:assert/strict';
import { activeStudy, adminToken, waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import { qualifiedTester } from './fixtures.ts';

interface Proposal {
  proposalId: string;
  jobId: string;
  testerId: string;
  matchScore: number;
  matchReasons: string[];
  status: string;
  generatedAt: string;
}

describe('GET /api/outreach/proposals', function () {
  this.timeout(60_000);
  let api: TestApi;
  let business: string;
  let jobId: string;
  let testers: string[];
  const list = (query: string, token: string) =>
    api.request('GET', `/api/outreach/proposals?${query}`, { token });

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
    testers = [
      await qualifiedTester('SI'),
      await qualifiedTester('SI'),
      await qualifiedTester('SI'),
      await qualifiedTester('SI'),
    ];
    // Two testers: with the 25 % over-booking margin, three places are proposed.
    jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: { countries: ['SI'], devices: ['desktop'], testerCount: 2 },
    });
    await waitFor(async () => ((await list(`jobId=${jobId}`, business)).body.data as unknown[]).length === 3);
  });
  after(() => api.stop());

  it('a paid study fills itself with pending proposals from matching, best match first, with reasons', async () => {
    const answer = await list(`jobId=${jobId}`, business);
    assert.equal(answer.status, 200, answer.text);
    const proposals = answer.body.data as Proposal[];
    assert.equal(proposals.length, 3);
    assert.deepEqual(answer.body.metadata, { page: 1, limit: 20, total: 3 });
    for (const proposal of proposals) {
      assert.deepEqual(Object.keys(proposal).sort(), [
        'generatedAt',
        'jobId',
        'matchReasons',
        'matchScore',
        'proposalId',
        'status',
        'testerId',
      ]);
      assert.equal(proposal.jobId, jobId);
      assert.equal(proposal.status, 'pending');
      assert.ok(testers.includes(proposal.testerId));
      assert.ok(proposal.matchScore >= 0 && proposal.matchScore <= 1);
      assert.ok(proposal.matchReasons.includes('Tests on every device the study asks for (desktop)'));
    }
    const scores = proposals.map((p) => p.matchScore);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
    assert.equal(new Set(proposals.map((p) => p.testerId)).size, 3, 'never two proposals for one tester');
  });

  it('filters by status and pages with page and limit', async () => {
    assert.deepEqual((await list(`jobId=${jobId}&status=skipped`, business)).body.data, []);
    const page = await list(`jobId=${jobId}&status=pending&limit=2&page=2`, business);
    assert.equal((page.body.data as unknown[]).length, 1);
    assert.deepEqual(page.body.metadata, { page: 2, limit: 2, total: 3 });
  });

  it('admins read them; testers are refused (403) and other organizations find no study (404)', async () => {
    assert.equal((await list(`jobId=${jobId}`, await adminToken())).status, 200);
    const tester = await sessionToken({ sub: testers[0]!, role: 'tester', organization_id: null });
    assert.equal((await list(`jobId=${jobId}`, tester)).status, 403);
    const stranger = await sessionToken((await createBusiness('pro')).claims);
    const hidden = await list(`jobId=${jobId}`, stranger);
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.error, 'Study not found');
  });

  it('jobId is required and names a study whatever its form; status must be one of the three (422 naming the field)', async () => {
    const missing = await list('status=pending', business);
    assert.equal(missing.status, 422);
    assert.match(missing.body.error as string, /^jobId: /);
    for (const unknown of ['42', 'study-7', '']) {
      const named = await list(`jobId=${unknown}`, business);
      assert.equal(named.status, 404, unknown);
      assert.equal(named.body.error, 'Study not found');
    }
    const status = await list(`jobId=${jobId}&status=declined`, business);
    assert.equal(status.status, 422);
    assert.match(status.body.error as string, /^status: /);
  });
});
