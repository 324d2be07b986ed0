import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { adminToken, businessWithStudy, startSession } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

// The spec: "All identifiers are strings". An id a request body names (issue 33, point 1) is not
// found whatever its form, as one in a path is: 404 with the same answer as an unknown id of the
// service's own form, never 422 because it does not look like one.

/** Forms a caller may send that name nothing here. */
const FORMS = ['study-7', '42', '', ' ', 'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ', 'a'.repeat(300), 'ünïcødé'];

describe('an unknown id in a request body is not found, whatever its form', function () {
  this.timeout(60_000);
  let api: TestApi;
  let business: string;
  let jobId: string;
  let tester: { token: string; id: string; sessionId: string };
  let admin: string;
  before(async () => {
    api = await startTestApi();
    ({ business, jobId } = await businessWithStudy(api));
    const session = await startSession(api, business, jobId);
    tester = { token: session.testerToken, id: session.tester.sub, sessionId: session.sessionId };
    admin = await adminToken();
  });
  after(() => api.stop());

  /** Each form answers as an unknown id of the service's form does: 404, the same message. */
  async function answersAsUnknown(
    path: string,
    token: string,
    bodyWith: (id: string) => unknown,
    expected: string,
  ): Promise<void> {
    const unknown = await api.request('POST', path, { body: bodyWith(randomUUID()), token });
    assert.equal(unknown.status, 404, `${path}: ${unknown.text}`);
    assert.equal(unknown.body.error, expected);
    for (const form of FORMS) {
      const answer = await api.request('POST', path, { body: bodyWith(form), token });
      assert.equal(answer.status, 404, `${path} with ${JSON.stringify(form)}: ${answer.text}`);
      assert.deepEqual(answer.body, unknown.body, `${path} with ${JSON.stringify(form)}`);
    }
  }

  it("POST /api/sessions: the study's jobId, and the testerId", async () => {
    await answersAsUnknown(
      '/api/sessions',
      business,
      (id) => ({ jobId: id, testerId: tester.id }),
      'Study not found',
    );
    await answersAsUnknown('/api/sessions', business, (id) => ({ jobId, testerId: id }), 'Tester not found');
  });

  it('the ingestion routes: the sessionId of POST /api/data/events, facial and voice', async () => {
    for (const kind of ['events', 'facial', 'voice'])
      await answersAsUnknown(
        `/api/data/${kind}`,
        tester.token,
        (id) => ({ sessionId: id, batch: [] }),
        'Session not found',
      );
  });

  it('the other bodies naming a session or a study', async () => {
    await answersAsUnknown('/api/reports', business, (id) => ({ sessionId: id }), 'Session not found');
    await answersAsUnknown('/api/ai', business, (id) => ({ sessionId: id }), 'Session not found');
    await answersAsUnknown('/api/billing/checkout', business, (id) => ({ jobId: id }), 'Study not found');
    await answersAsUnknown(
      '/api/gamification/evaluate',
      admin,
      (id) => ({
        sessionId: id,
        testerId: tester.id,
        signals: { sessionCompleted: true, businessRating: 4 },
      }),
      'Session not found',
    );
  });

  it('a value that is not a string is still invalid (422 naming the field)', async () => {
    const answer = await api.request('POST', '/api/sessions', {
      body: { jobId: 42, testerId: tester.id },
      token: business,
    });
    assert.equal(answer.status, 422);
    assert.match(answer.body.error as string, /^jobId: Must be a study id \(a string\)/);
  });

  it('an id of the service form in capitals names the same row', async () => {
    const answer = await api.request('POST', '/api/data/events', {
      body: { sessionId: tester.sessionId.toUpperCase(), batch: [] },
      token: tester.token,
    });
    assert.equal(answer.status, 200, answer.text);
  });
});
