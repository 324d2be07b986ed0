import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem, asUser } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import { activeStudy, analyzedSession, type TesterSession, waitFor } from './fixtures.ts';

describe("POST /api/sessions/:id/rating: the organization's rating of a confirmed session", function () {
  this.timeout(120_000);
  let api: TestApi;
  let business: string;
  let jobId: string;

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
    jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 3 },
    });
  });
  after(() => api.stop());

  const rate = (sessionId: string, body: unknown, token = business) =>
    api.request('POST', `/api/sessions/${sessionId}/rating`, { token, body });
  const confirm = async ({ sessionId, testerToken }: TesterSession) => {
    const response = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 2 },
      token: testerToken,
    });
    assert.equal(response.status, 200, response.text);
  };

  it('rates a confirmed session once, 1-5 with a comment; the tester keeps their own rating', async () => {
    const session = await analyzedSession(api, business, jobId);
    const early = await rate(session.sessionId, { rating: 4 });
    assert.equal(early.status, 409);
    assert.equal(early.body.error, 'Session must be confirmed to rate (it is analyzed)');
    await confirm(session);

    const rated = await rate(session.sessionId, { rating: 4, comment: '  Thorough and clear.  ' });
    assert.equal(rated.status, 201, rated.text);
    const answer = rated.body.data as Record<string, unknown>;
    assert.deepEqual(Object.keys(answer).sort(), ['comment', 'ratedAt', 'rating', 'sessionId']);
    assert.deepEqual(
      [answer.sessionId, answer.rating, answer.comment],
      [session.sessionId, 4, 'Thorough and clear.'],
    );
    const stored = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').selectAll().where('id', '=', session.sessionId).executeTakeFirstOrThrow(),
    );
    assert.deepEqual([stored.business_rating, stored.rating], [4, 2], "the tester's own rating stays");
    assert.equal(stored.business_rated_at!.toISOString(), answer.ratedAt);

    // The rating hands the session to its evaluation: points follow without anyone asking.
    await waitFor(async () => {
      const evaluated = await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('gamification_evaluations')
          .select('points_awarded')
          .where('session_id', '=', session.sessionId)
          .executeTakeFirst(),
      );
      // Completed 50, rated 4 stars 30, on time 10.
      return evaluated?.points_awarded === 90;
    });

    const twice = await rate(session.sessionId, { rating: 1 });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error, 'Session is already rated');
    assert.equal(
      (
        await asSystem(testDatabase(), (tx) =>
          tx
            .selectFrom('sessions')
            .select('business_rating')
            .where('id', '=', session.sessionId)
            .executeTakeFirstOrThrow(),
        )
      ).business_rating,
      4,
    );
  });

  it('refuses ratings outside 1-5 (422 naming rating), testers (403) and other organizations (404), changing nothing', async () => {
    const session = await analyzedSession(api, business, jobId);
    await confirm(session);
    for (const body of [
      { rating: 0 },
      { rating: 6 },
      { rating: 4.5 },
      {},
      { rating: 3, comment: 'x'.repeat(2_001) },
    ]) {
      const answer = await rate(session.sessionId, body);
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(
        String(answer.body.error),
        'rating' in body && body.rating === 3 ? /^comment: / : /^rating: /,
      );
    }
    assert.equal((await rate(session.sessionId, { rating: 5 }, session.testerToken)).status, 403);
    const other = await sessionToken((await createBusiness('pro')).claims);
    assert.equal((await rate(session.sessionId, { rating: 5 }, other)).status, 404);
    assert.equal((await rate(randomUUID(), { rating: 5 })).status, 404);
    const stored = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('sessions')
        .select('business_rating')
        .where('id', '=', session.sessionId)
        .executeTakeFirstOrThrow(),
    );
    assert.equal(stored.business_rating, null);
  });

  it("the database keeps the rule too: the session's tester cannot write it, nor the organization rewrite it", async () => {
    const session = await analyzedSession(api, business, jobId);
    await confirm(session);
    await assert.rejects(
      asUser(testDatabase(), session.tester, (tx) =>
        tx
          .updateTable('sessions')
          .set({ business_rating: 5, business_rated_at: new Date() })
          .where('id', '=', session.sessionId)
          .execute(),
      ),
      /only the organization rates/,
    );
    assert.equal((await rate(session.sessionId, { rating: 3 })).status, 201);
    const owner = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('sessions')
        .select('organization_id')
        .where('id', '=', session.sessionId)
        .executeTakeFirstOrThrow(),
    );
    await assert.rejects(
      asUser(
        testDatabase(),
        { sub: randomUUID(), role: 'business', organization_id: owner.organization_id },
        (tx) =>
          tx
            .updateTable('sessions')
            .set({ business_rating: 5 })
            .where('id', '=', session.sessionId)
            .execute(),
      ),
      /rated already/,
    );
  });
});
