import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { paymentConfirmedSignal, studyWorkflowId } from '../../workflows/messages/study.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { abStudyBody, CREATED_STUDY_FIELDS, validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';

interface ListedStudy {
  jobId: string;
  title: string;
  status: string;
}

describe('GET /api/jobs and GET /api/jobs/:id', () => {
  let api: TestApi;
  let token: string;
  let otherToken: string;
  let draftId: string;
  let activeId: string;
  let otherId: string;

  const create = async (as: string, body: unknown = validStudyBody()) => {
    const response = await api.request('POST', '/api/jobs', { body, token: as });
    assert.equal(response.status, 201);
    return (response.body.data as ListedStudy).jobId;
  };

  /** Confirms payment through the workflow signal and waits until the study reads as active. */
  const activate = async (jobId: string) => {
    const { client } = await temporalEnvironment();
    await client.workflow.getHandle(studyWorkflowId(jobId)).signal(paymentConfirmedSignal);
    for (;;) {
      const read = await api.request('GET', `/api/jobs/${jobId}`, { token });
      if ((read.body.data as ListedStudy).status === 'active') return;
      await sleep(50);
    }
  };

  before(async () => {
    api = await startTestApi();
    const mine = await createBusiness('pro');
    const theirs = await createBusiness('pro');
    token = await sessionToken(mine.claims);
    otherToken = await sessionToken(theirs.claims);
    draftId = await create(token, { ...validStudyBody(), title: 'Draft study' });
    activeId = await create(token, { ...abStudyBody(), title: 'Active study' });
    otherId = await create(otherToken, { ...validStudyBody(), title: 'Their study' });
    await activate(activeId);
  });
  after(() => api.stop());

  describe('GET /api/jobs', () => {
    it("lists only the caller's organization: another organization's studies never appear", async () => {
      const response = await api.request('GET', '/api/jobs', { token });
      assert.equal(response.status, 200);
      const ids = (response.body.data as ListedStudy[]).map((study) => study.jobId);
      assert.deepEqual(ids, [activeId, draftId]);
      assert.deepEqual(response.body.metadata, { page: 1, limit: 20, total: 2 });

      const theirs = await api.request('GET', '/api/jobs', { token: otherToken });
      assert.deepEqual(
        (theirs.body.data as ListedStudy[]).map((study) => study.jobId),
        [otherId],
      );
    });

    it('lists items in the create response shape, newest first', async () => {
      const response = await api.request('GET', '/api/jobs', { token });
      const [newest] = response.body.data as Record<string, unknown>[];
      assert.deepEqual(Object.keys(newest!).sort(), CREATED_STUDY_FIELDS);
      assert.equal(newest!.jobId, activeId);
      assert.deepEqual(newest!.variants, ['A', 'B']);
    });

    it('the status filter keeps only studies in that status', async () => {
      const active = await api.request('GET', '/api/jobs?status=active', { token });
      assert.deepEqual(
        (active.body.data as ListedStudy[]).map((s) => [s.jobId, s.status]),
        [[activeId, 'active']],
      );
      assert.equal(active.body.metadata?.total, 1);
      const draft = await api.request('GET', '/api/jobs?status=draft', { token });
      assert.deepEqual(
        (draft.body.data as ListedStudy[]).map((s) => [s.jobId, s.status]),
        [[draftId, 'draft']],
      );
      const archived = await api.request('GET', '/api/jobs?status=archived', { token });
      assert.deepEqual(archived.body.data, []);
      assert.equal(archived.body.metadata?.total, 0);
    });

    it('an unknown status is 422 naming status', async () => {
      const response = await api.request('GET', '/api/jobs?status=running', { token });
      assert.equal(response.status, 422);
      assert.equal(
        response.body.error,
        'status: Invalid option: expected one of "draft"|"active"|"paused"|"completed"|"archived"',
      );
    });

    it('pages with page and limit; metadata counts every match', async () => {
      const first = await api.request('GET', '/api/jobs?limit=1', { token });
      const second = await api.request('GET', '/api/jobs?limit=1&page=2', { token });
      assert.deepEqual(first.body.metadata, { page: 1, limit: 1, total: 2 });
      assert.deepEqual(second.body.metadata, { page: 2, limit: 1, total: 2 });
      assert.deepEqual(
        [...(first.body.data as ListedStudy[]), ...(second.body.data as ListedStudy[])].map((s) => s.jobId),
        [activeId, draftId],
      );
    });

    it('a tester without sessions on a study sees no studies', async () => {
      const tester = await sessionToken(await createTester());
      const response = await api.request('GET', '/api/jobs', { token: tester });
      assert.equal(response.status, 200);
      assert.deepEqual(response.body.data, []);
    });

    it('401 without a token', async () => {
      const response = await api.request('GET', '/api/jobs');
      assert.equal(response.status, 401);
    });
  });

  describe('GET /api/jobs/:id', () => {
    it('reads the study with tasks, targeting, A/B test, compensation, settings and tone profile', async () => {
      const response = await api.request('GET', `/api/jobs/${activeId}`, { token });
      assert.equal(response.status, 200);
      const study = response.body.data as Record<string, unknown>;
      assert.deepEqual(Object.keys(study).sort(), [
        'abTest',
        'compensation',
        'createdAt',
        'description',
        'estimatedLaunchDate',
        'jobId',
        'notesConfirmed',
        'prototypeType',
        'prototypeUrl',
        'settings',
        'status',
        'targeting',
        'tasks',
        'title',
        'toneProfile',
        'updatedAt',
      ]);
      assert.equal(study.jobId, activeId);
      assert.equal(study.title, 'Active study');
      assert.equal(study.status, 'active');
      assert.equal(study.prototypeUrl, 'https://shop.example/checkout');
      assert.equal(study.prototypeType, 'url');
      assert.equal(study.notesConfirmed, false);
      assert.deepEqual(study.targeting, {
        countries: ['GB', 'DE'],
        ageRange: null,
        devices: ['desktop', 'mobile'],
        languages: ['en'],
        testerCount: 10,
      });
      assert.deepEqual(study.abTest, {
        enabled: true,
        variants: [
          { label: 'A', description: 'Variant A' },
          { label: 'B', description: 'Variant B' },
        ],
        splitRatio: { A: 0.5, B: 0.5 },
      });
      assert.deepEqual(study.compensation, { currency: 'EUR', amount: 25, type: 'flat' });
    });

    it("404 for another organization's study", async () => {
      const response = await api.request('GET', `/api/jobs/${otherId}`, { token });
      assert.equal(response.status, 404);
      assert.equal(response.body.error, 'Study not found');
      assert.equal(response.body.data, null);
    });

    it('404 for an id that is not a uuid', async () => {
      const response = await api.request('GET', '/api/jobs/not-a-uuid', { token });
      assert.equal(response.status, 404);
      assert.equal(response.body.error, 'Study not found');
    });

    it('404 for a tester without a session on the study', async () => {
      const tester = await sessionToken(await createTester());
      const response = await api.request('GET', `/api/jobs/${draftId}`, { token: tester });
      assert.equal(response.status, 404);
    });
  });
});
