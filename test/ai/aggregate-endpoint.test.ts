import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { LOCAL_ANALYST } from '../../activities/ai/agents.ts';
import { asSystem } from '../../db/doors.ts';
import { agent4WorkflowId } from '../../workflows/messages/agents.ts';
import { activeStudy, pollJob } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { abStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { addReport, adminUserToken, confirmedSession, profiledTester } from './fixtures.ts';

interface AggregateRead {
  aggregateJobId: string;
  jobId: string;
  sessionCount: number;
  status: string;
  estimatedCompletionSeconds: number;
  aggregateReportId: string | null;
  provider: string | null;
  usedFallback: boolean;
  report: {
    jobId: string;
    sessionCount: number;
    studyScore: number;
    topFindings: { findingId: string; severity: string; title: string; affectedSessionCount: number }[];
    variantComparison: Record<string, { avgScore: number; sessionCount: number }>;
    recommendations: string[];
    widespreadBarriers: { findingId: string }[];
    profileSpecificBarriers: { findingId: string; dimension: string; value: string }[];
    stratification: Record<string, Record<string, { sessionCount: number; avgScore: number }>>;
    tasks: { order: number; title: string }[];
  } | null;
}

describe('Agent 4: POST /api/reports/job/:id and GET /api/reports/job/:id', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;

  const post = (id: string, body: unknown, token = business) =>
    api.request('POST', `/api/reports/job/${id}`, { body, token });
  const poll = (id: string, token = business) => pollJob<AggregateRead>(api, `/api/reports/job/${id}`, token);

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
    jobId = await activeStudy(api, business, abStudyBody(['A', 'B']));
  });
  after(() => api.stop());

  it('409 until the study has minSessionCount reports and every confirmed session has its report', async () => {
    const none = await post(jobId, {});
    assert.equal(none.status, 409);
    assert.equal(none.body.error, 'The study needs at least 1 tester report (it has 0)');

    const year = new Date().getUTCFullYear();
    const first = await profiledTester({ country: 'GB', devices: ['desktop'], birthYear: year - 30 });
    const second = await profiledTester({
      country: 'DE',
      devices: ['desktop', 'mobile'],
      accessNeeds: ['blind'],
      birthYear: year - 70,
    });
    await confirmedSession(jobId, first, {
      variant: 'A',
      score: 70,
      findings: [{ criterion: '4.1.2', severity: 'high', flow: '#pay' }],
    });
    const waiting = await confirmedSession(jobId, second, { variant: 'B', report: false });
    const pending = await post(jobId, {});
    assert.equal(pending.status, 409);
    assert.equal(
      pending.body.error,
      'Every confirmed session needs its tester report first (1 still being generated)',
    );

    await addReport(jobId, waiting, second, {
      score: 50,
      findings: [
        { criterion: '4.1.2', severity: 'critical', flow: '#pay' },
        { criterion: '1.1.1', severity: 'high', flow: 'img.hero' },
      ],
    });
    const tooFew = await post(jobId, { minSessionCount: 3 });
    assert.equal(tooFew.status, 409);
    assert.equal(tooFew.body.error, 'The study needs at least 3 tester reports (it has 2)');
  });

  it('queues the job (202) and stores a study-level report built through the system door', async () => {
    const response = await post(jobId, {});
    assert.equal(response.status, 202, response.text);
    const queued = response.body.data as AggregateRead;
    assert.deepEqual(Object.keys(queued).sort(), [
      'aggregateJobId',
      'estimatedCompletionSeconds',
      'jobId',
      'sessionCount',
      'status',
    ]);
    assert.deepEqual([queued.jobId, queued.sessionCount, queued.status], [jobId, 2, 'queued']);

    const done = await poll(jobId);
    assert.equal(done.aggregateJobId, queued.aggregateJobId);
    assert.equal(done.status, 'complete');
    assert.deepEqual([done.provider, done.usedFallback], [LOCAL_ANALYST, false]);
    const report = done.report!;
    assert.equal(report.jobId, jobId);
    assert.equal(report.studyScore, 60);
    assert.deepEqual(
      report.topFindings.map((f) => [f.severity, f.affectedSessionCount]),
      [
        ['critical', 2],
        ['high', 1],
      ],
    );
    assert.deepEqual(report.variantComparison, {
      A: { avgScore: 70, sessionCount: 1 },
      B: { avgScore: 50, sessionCount: 1 },
    });
    assert.deepEqual(
      report.widespreadBarriers.map((b) => b.findingId),
      [report.topFindings[0]!.findingId],
    );
    // Profiles are not readable by businesses: this came through the system door.
    assert.deepEqual(report.profileSpecificBarriers[0], {
      findingId: report.topFindings[1]!.findingId,
      dimension: 'accessNeeds',
      value: 'blind',
      affectedSessionCount: 1,
      groupSessionCount: 1,
    });
    assert.deepEqual(Object.keys(report.stratification.device!).sort(), ['desktop', 'mobile']);
    assert.deepEqual(report.stratification.ageBand, {
      '25-34': { sessionCount: 1, avgScore: 70, barriers: [report.topFindings[0]!.findingId] },
      '65+': {
        sessionCount: 1,
        avgScore: 50,
        barriers: [report.topFindings[0]!.findingId, report.topFindings[1]!.findingId],
      },
    });

    const row = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('study_reports')
        .selectAll()
        .where('id', '=', done.aggregateReportId!)
        .executeTakeFirstOrThrow(),
    );
    assert.equal(row.agent_job_id, queued.aggregateJobId);
    assert.equal(row.session_count, 2);
    assert.equal(row.used_fallback, false);
    assert.deepEqual(
      report.tasks.map((task) => [task.order, task.title]),
      [
        [1, 'Find a product'],
        [2, 'Pay'],
      ],
    );
    // A report written before sessions had tasks (none in its stored content) reads with none.
    await asSystem(testDatabase(), (tx) =>
      sql`update study_reports set content = content - 'tasks' where id = ${row.id}`.execute(tx),
    );
    assert.deepEqual((await poll(jobId)).report!.tasks, []);
    const env = await temporalEnvironment();
    const workflow = await env.client.workflow.getHandle(agent4WorkflowId(queued.aggregateJobId)).describe();
    assert.equal(workflow.type, 'agent4Workflow');
  });

  it('includeVariantComparison false leaves the comparison out; an admin may request it', async () => {
    const response = await post(jobId, { includeVariantComparison: false }, await adminUserToken());
    assert.equal(response.status, 202, response.text);
    const done = await poll(jobId);
    assert.equal(done.aggregateJobId, (response.body.data as AggregateRead).aggregateJobId);
    assert.deepEqual(done.report!.variantComparison, {});
  });

  it('testers get 403; another organization gets 404; a study without an aggregate answers 404', async () => {
    const tester = await sessionToken(await profiledTester({ country: 'GB', devices: ['desktop'] }));
    assert.equal((await post(jobId, {}, tester)).status, 403);
    assert.equal((await api.request('GET', `/api/reports/job/${jobId}`, { token: tester })).status, 403);
    const stranger = await sessionToken((await createBusiness()).claims);
    const foreign = await post(jobId, {}, stranger);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, 'Study not found');
    assert.equal((await api.request('GET', `/api/reports/job/${jobId}`, { token: stranger })).status, 404);
    const fresh = await activeStudy(api, business);
    const missing = await api.request('GET', `/api/reports/job/${fresh}`, { token: business });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'Aggregate report not found');
  });
});
