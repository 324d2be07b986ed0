import assert from 'node:assert/strict';
import { LOCAL_ANALYST } from '../../activities/ai/agents.ts';
import { asSystem } from '../../db/doors.ts';
import { agent4WorkflowId } from '../../workflows/messages/agents.ts';
import {
  activeStudy,
  analyzedSession,
  completedReportJob,
  waitFor,
  type TesterSession,
} from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';

const studyReportsOf = (studyId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('study_reports').selectAll().where('study_id', '=', studyId).execute(),
  );
const aggregateJobsOf = (studyId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('agent_jobs')
      .selectAll()
      .where('study_id', '=', studyId)
      .where('kind', '=', 'agent4')
      .execute(),
  );

describe('Agent 4 on study completion (DESIGN.md: completed -> Agent 4 aggregate report)', () => {
  let api: TestApi;
  let business: string;

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
  });
  after(() => api.stop());

  const confirm = async ({ sessionId, testerToken }: TesterSession) => {
    const response = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 5 },
      token: testerToken,
    });
    assert.equal(response.status, 200, response.text);
  };

  it('a study of two confirmed sessions gets its study report by itself once both tester reports exist', async () => {
    const jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 2 },
    });
    const first = await analyzedSession(api, business, jobId);
    const second = await analyzedSession(api, business, jobId);
    await confirm(first);
    await completedReportJob(api, first.sessionId, first.testerToken);
    // One of two: the study is not complete, and nobody asked for a study report.
    assert.deepEqual(await aggregateJobsOf(jobId), []);

    await confirm(second);
    await waitFor(async () => (await studyReportsOf(jobId)).length > 0);
    const [report] = await studyReportsOf(jobId);
    const [job] = await aggregateJobsOf(jobId);
    assert.deepEqual(
      [job!.status, job!.requested_by, job!.provider, report!.agent_job_id, report!.session_count],
      ['complete', null, LOCAL_ANALYST, job!.id, 2],
    );
    assert.equal(report!.provider, LOCAL_ANALYST);
    // Both tester reports were in before it ran.
    const reports = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('reports').select('generated_at').where('study_id', '=', jobId).execute(),
    );
    assert.equal(reports.length, 2);
    assert.ok(reports.every((r) => r.generated_at <= report!.generated_at));

    // The organization reads it without having asked.
    const read = await api.request('GET', `/api/reports/job/${jobId}`, { token: business });
    assert.equal(read.status, 200, read.text);
    const data = read.body.data as {
      status: string;
      aggregateReportId: string;
      report: { sessionCount: number };
    };
    assert.deepEqual(
      [data.status, data.aggregateReportId, data.report.sessionCount],
      ['complete', report!.id, 2],
    );

    // It ran as agent4:<id>, its agent under a heartbeat timeout like every agent job.
    const handle = (await temporalEnvironment()).client.workflow.getHandle(agent4WorkflowId(job!.id));
    const scheduled = ((await handle.fetchHistory()).events ?? []).find(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runAgentJob',
    );
    assert.equal(String(scheduled?.activityTaskScheduledEventAttributes?.heartbeatTimeout?.seconds), '10');
  });
});
