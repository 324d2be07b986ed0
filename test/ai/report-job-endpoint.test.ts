import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LOCAL_ANALYST } from '../../activities/ai/agents.ts';
import { asSystem } from '../../db/doors.ts';
import {
  agentJobsOf,
  analyzedSession,
  apiWithStudy,
  completedReportJob,
  eligibleTester,
  startSession,
} from '../sessions/fixtures.ts';
import type { TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { queuedAgentJob } from './fixtures.ts';

describe('GET /api/reports/jobs/:reportJobId (polling an Agent 3 job)', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;

  before(async () => ({ api, business, jobId } = await apiWithStudy()));
  after(() => api.stop());

  const poll = (reportJobId: string, token: string) =>
    api.request('GET', `/api/reports/jobs/${reportJobId}`, { token });

  it("the session's tester and the organization read the job with its reportId and provider; nobody else finds it (404)", async () => {
    const { sessionId, testerToken } = await analyzedSession(api, business, jobId);
    const confirmed = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 5 },
      token: testerToken,
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    const job = await completedReportJob(api, sessionId, testerToken);
    assert.ok(job.reportId);

    for (const token of [testerToken, business]) {
      const read = await poll(job.reportJobId, token);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body.data, {
        reportJobId: job.reportJobId,
        sessionId,
        status: 'complete',
        estimatedCompletionSeconds: 0,
        reportId: job.reportId,
        provider: LOCAL_ANALYST,
        usedFallback: false,
        error: null,
      });
    }
    // The report it names is readable where the job is.
    const report = await api.request('GET', `/api/reports/${job.reportId}`, { token: business });
    assert.equal(report.status, 200, report.text);

    const otherBusiness = await sessionToken((await createBusiness('pro')).claims);
    const otherTester = await sessionToken(await eligibleTester());
    for (const token of [otherBusiness, otherTester]) {
      const read = await poll(job.reportJobId, token);
      assert.equal(read.status, 404, read.text);
      assert.equal(read.body.error, 'Report job not found');
    }
    // Another kind of job of the same session is not a report job, even for its tester.
    const [agent2] = await agentJobsOf(sessionId, 'agent2');
    assert.equal((await poll(agent2!.id, testerToken)).status, 404);
    assert.equal((await poll(randomUUID(), testerToken)).status, 404);
  });

  it('a job still being retried answers queued, with its estimate and the last error', async () => {
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const reportJobId = await queuedAgentJob(sessionId, 'agent3');
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('agent_jobs')
        .set({ error: 'the worker lost its database connection', estimated_completion_seconds: 65 })
        .where('id', '=', reportJobId)
        .execute(),
    );
    const read = await poll(reportJobId, testerToken);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.data, {
      reportJobId,
      sessionId,
      status: 'queued',
      estimatedCompletionSeconds: 65,
      reportId: null,
      provider: null,
      usedFallback: false,
      error: 'the worker lost its database connection',
    });
  });
});
