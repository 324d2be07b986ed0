import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';

const OWN_STUDIES = 25;
const OTHER_STUDIES = 3;

interface ListedStudy {
  readonly jobId: string;
}

describe('pagination (GET /api/jobs)', () => {
  let api: TestApi;
  let token: string;
  let otherToken: string;
  const created: string[] = [];

  before(async function () {
    this.timeout(120_000);
    api = await startTestApi();
    token = await sessionToken((await createBusiness('pro')).claims);
    otherToken = await sessionToken((await createBusiness('pro')).claims);
    for (let index = 0; index < OWN_STUDIES; index += 1) {
      const response = await api.request('POST', '/api/jobs', {
        token,
        body: { ...validStudyBody(), title: `Study ${index}` },
      });
      assert.equal(response.status, 201, response.text);
      created.push((response.body.data as ListedStudy).jobId);
    }
    for (let index = 0; index < OTHER_STUDIES; index += 1) {
      const response = await api.request('POST', '/api/jobs', { token: otherToken, body: validStudyBody() });
      assert.equal(response.status, 201, response.text);
    }
  });
  after(() => api.stop());

  const list = (query: string, as = token) => api.request('GET', `/api/jobs${query}`, { token: as });
  const idsOf = (data: unknown) => (data as ListedStudy[]).map((study) => study.jobId);

  it('defaults to page 1 and limit 20, with metadata {page, limit, total}', async () => {
    const response = await list('');
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    assert.deepEqual(response.body.metadata, { page: 1, limit: 20, total: OWN_STUDIES });
    assert.equal(idsOf(response.body.data).length, 20);
  });

  it('the second page holds the rest, none of them repeated from the first', async () => {
    const first = idsOf((await list('?page=1&limit=20')).body.data);
    const second = await list('?page=2');
    assert.deepEqual(second.body.metadata, { page: 2, limit: 20, total: OWN_STUDIES });
    const rest = idsOf(second.body.data);
    assert.equal(rest.length, OWN_STUDIES - 20);
    assert.deepEqual([...first, ...rest].sort(), [...created].sort());
  });

  it('pages follow the limit asked for', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list(`?page=${page}&limit=7`)));
    assert.deepEqual(
      pages.map((page) => idsOf(page.body.data).length),
      [7, 7, 7, 4],
    );
    assert.deepEqual(pages.flatMap((page) => idsOf(page.body.data)).sort(), [...created].sort());
  });

  it('a page past the end is empty, with the total', async () => {
    const response = await list('?page=9');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, []);
    assert.deepEqual(response.body.metadata, { page: 9, limit: 20, total: OWN_STUDIES });
  });

  it('limit 100 is accepted', async () => {
    const response = await list('?limit=100');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.metadata, { page: 1, limit: 100, total: OWN_STUDIES });
    assert.equal(idsOf(response.body.data).length, OWN_STUDIES);
  });

  it('limit 101 answers 422 naming limit', async () => {
    const response = await list('?limit=101');
    assert.equal(response.status, 422);
    assert.equal(response.body.success, false);
    assert.equal(response.body.metadata, null);
    assert.match(response.body.error ?? '', /^limit: /);
  });

  it('limit 0 and page 0 answer 422 naming the parameter', async () => {
    const limit = await list('?limit=0');
    assert.equal(limit.status, 422);
    assert.match(limit.body.error ?? '', /^limit: /);
    const page = await list('?page=0');
    assert.equal(page.status, 422);
    assert.match(page.body.error ?? '', /^page: /);
  });

  it("the total counts only the caller's organization", async () => {
    const other = await list('?limit=100', otherToken);
    assert.deepEqual(other.body.metadata, { page: 1, limit: 100, total: OTHER_STUDIES });
    const otherIds = idsOf(other.body.data);
    assert.equal(otherIds.length, OTHER_STUDIES);
    assert.ok(otherIds.every((id) => !created.includes(id)));
  });
});
