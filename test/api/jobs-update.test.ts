import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { StudyStatus } from '../../lib/domain.ts';
import { paymentConfirmedSignal, studyStatusQuery, studyWorkflowId } from '../../workflows/messages/study.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { insertStudy } from '../auth/helpers.ts';
import { createBusiness, createTester, type BusinessFixture } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';

interface StudyRead {
  jobId: string;
  title: string;
  description: string;
  status: string;
}

describe('PATCH /api/jobs/:id', () => {
  let api: TestApi;
  let business: BusinessFixture;
  let token: string;

  const create = async () => {
    const response = await api.request('POST', '/api/jobs', { body: validStudyBody(), token });
    assert.equal(response.status, 201);
    return (response.body.data as StudyRead).jobId;
  };
  const patch = (jobId: string, body: unknown, as = token) =>
    api.request('PATCH', `/api/jobs/${jobId}`, { body, token: as });
  const read = async (jobId: string) =>
    (await api.request('GET', `/api/jobs/${jobId}`, { token })).body.data as StudyRead;
  const workflow = async (jobId: string) =>
    (await temporalEnvironment()).client.workflow.getHandle(studyWorkflowId(jobId));

  /** The payment signal, as the checkout webhook sends it; then polls GET until the study is active. */
  const confirmPayment = async (jobId: string) => {
    await (await workflow(jobId)).signal(paymentConfirmedSignal);
    while ((await read(jobId)).status !== 'active') await sleep(50);
  };

  /** A study written straight to the database, as the seed writes its demo study: no workflow. */
  const storedWithoutWorkflow = (status: StudyStatus) =>
    insertStudy(business.organizationId, { status, paid_at: new Date() });

  before(async () => {
    api = await startTestApi();
    business = await createBusiness('pro');
    token = await sessionToken(business.claims);
  });
  after(() => api.stop());

  describe('title and description', () => {
    it('can change while the study is draft', async () => {
      const jobId = await create();
      const response = await patch(jobId, { title: 'Renamed', description: 'New objectives' });
      assert.equal(response.status, 200);
      const data = response.body.data as StudyRead;
      assert.equal(data.title, 'Renamed');
      assert.equal(data.description, 'New objectives');
      assert.equal((await read(jobId)).title, 'Renamed');
    });

    it('cannot change once the study is active: 409 naming the draft state', async () => {
      const jobId = await create();
      await confirmPayment(jobId);
      const response = await patch(jobId, { title: 'Too late' });
      assert.equal(response.status, 409);
      assert.equal(
        response.body.error,
        'Title and description can change only while the study is draft (it is active)',
      );
      assert.equal((await read(jobId)).title, 'Checkout flow study');
    });

    it('an empty body is 422', async () => {
      const jobId = await create();
      const response = await patch(jobId, {});
      assert.equal(response.status, 422);
      assert.equal(response.body.error, 'body: Provide status, title, description or toneProfile');
    });

    it('a status other than paused, active or archived is 422 naming status', async () => {
      const jobId = await create();
      const response = await patch(jobId, { status: 'completed' });
      assert.equal(response.status, 422);
      assert.equal(
        response.body.error,
        'status: Invalid option: expected one of "paused"|"active"|"archived"',
      );
    });
  });

  describe('status transitions', () => {
    it('draft -> paused is refused with 409 naming the active state', async () => {
      const jobId = await create();
      const response = await patch(jobId, { status: 'paused' });
      assert.equal(response.status, 409);
      assert.equal(response.body.error, 'Study must be active to pause (it is draft)');
      assert.equal((await read(jobId)).status, 'draft');
    });

    it('draft -> active through PATCH is refused: only payment activates a study', async () => {
      const jobId = await create();
      const response = await patch(jobId, { status: 'active' });
      assert.equal(response.status, 409);
      assert.equal(response.body.error, 'Study must be paused to resume (it is draft)');
    });

    it('payment -> active, pause -> paused, resume -> active, archive -> archived and the workflow completes', async () => {
      const jobId = await create();
      const handle = await workflow(jobId);
      await confirmPayment(jobId);

      const paused = await patch(jobId, { status: 'paused' });
      assert.equal(paused.status, 200);
      assert.equal((paused.body.data as StudyRead).status, 'paused');
      assert.equal((await read(jobId)).status, 'paused');
      assert.equal(await handle.query(studyStatusQuery), 'paused');

      const resumed = await patch(jobId, { status: 'active' });
      assert.equal(resumed.status, 200);
      assert.equal((resumed.body.data as StudyRead).status, 'active');

      const archived = await patch(jobId, { status: 'archived' });
      assert.equal(archived.status, 200);
      assert.equal((archived.body.data as StudyRead).status, 'archived');
      assert.equal((await read(jobId)).status, 'archived');

      await handle.result();
      assert.equal((await handle.describe()).status.name, 'COMPLETED');
    });

    it('archive and resume sent together are applied one at a time: the study ends archived', async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const jobId = await create();
        await confirmPayment(jobId);
        assert.equal((await patch(jobId, { status: 'paused' })).status, 200);
        const [archive, resume] = await Promise.all([
          patch(jobId, { status: 'archived' }),
          patch(jobId, { status: 'active' }),
        ]);
        assert.equal(archive.status, 200);
        assert.ok([200, 409].includes(resume.status), resume.text);
        assert.equal((await read(jobId)).status, 'archived');
        await (await workflow(jobId)).result();
      }
    });

    it('a study stored without a workflow (like the seeded demo study) gets one from its recorded status on its first change', async () => {
      const jobId = await storedWithoutWorkflow('active');
      const handle = await workflow(jobId);
      await assert.rejects(handle.describe(), WorkflowNotFoundError);

      const paused = await patch(jobId, { status: 'paused' });
      assert.equal(paused.status, 200, paused.text);
      assert.equal((paused.body.data as StudyRead).status, 'paused');
      assert.equal(await handle.query(studyStatusQuery), 'paused');
      const resumed = await patch(jobId, { status: 'active' });
      assert.equal(resumed.status, 200, resumed.text);
      assert.equal((await read(jobId)).status, 'active');
      // One workflow, started once: the second change found it running.
      const runs = (await temporalEnvironment()).client.workflow.list({
        query: `WorkflowId = '${studyWorkflowId(jobId)}'`,
      });
      let count = 0;
      for await (const _run of runs) count += 1;
      assert.equal(count, 1);
    });

    it('archived -> active is refused with 409', async () => {
      const jobId = await create();
      const archived = await patch(jobId, { status: 'archived' });
      assert.equal(archived.status, 200);
      const response = await patch(jobId, { status: 'active' });
      assert.equal(response.status, 409);
      assert.equal(response.body.error, 'Study must be paused to resume (it is archived)');
      assert.equal((await read(jobId)).status, 'archived');
    });

    it('archived -> archived is refused with 409', async () => {
      const jobId = await create();
      await patch(jobId, { status: 'archived' });
      const response = await patch(jobId, { status: 'archived' });
      assert.equal(response.status, 409);
      assert.equal(response.body.error, 'Study is already archived');
    });

    it('payment confirmed after archiving does not reopen the study', async () => {
      const jobId = await create();
      await patch(jobId, { status: 'archived' });
      const handle = await workflow(jobId);
      await handle.result();
      await assert.rejects(handle.signal(paymentConfirmedSignal));
      assert.equal((await read(jobId)).status, 'archived');
    });
  });

  describe('who may change a study', () => {
    it("another organization's PATCH is 404 and changes nothing", async () => {
      const jobId = await create();
      const other = await sessionToken((await createBusiness('pro')).claims);
      const response = await patch(jobId, { title: 'Hijacked' }, other);
      assert.equal(response.status, 404);
      assert.equal(response.body.error, 'Study not found');
      const archive = await patch(jobId, { status: 'archived' }, other);
      assert.equal(archive.status, 404);
      assert.deepEqual(
        [(await read(jobId)).title, (await read(jobId)).status],
        ['Checkout flow study', 'draft'],
      );
    });

    it('a tester token is 403', async () => {
      const jobId = await create();
      const tester = await sessionToken(await createTester());
      const response = await patch(jobId, { status: 'archived' }, tester);
      assert.equal(response.status, 403);
      assert.equal((await read(jobId)).status, 'draft');
    });

    it('404 for an id that is not a uuid', async () => {
      const response = await patch('not-a-uuid', { title: 'x' });
      assert.equal(response.status, 404);
      assert.equal(response.body.error, 'Study not found');
    });
  });
});
