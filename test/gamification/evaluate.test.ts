import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { insertStudy } from '../auth/helpers.ts';
import { activeStudy, analyzedSession, waitFor, type TesterSession } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';

interface Evaluation {
  testerId: string;
  sessionId: string;
  pointsAwarded: number;
  pointsBreakdown: Record<string, number>;
  newTotalPoints: number;
  previousLevel: number;
  currentLevel: number;
  leveledUp: boolean;
  badgesAwarded: { badgeId: string; name: string; description: string; iconUrl: string; awardedAt: string }[];
  nextLevelThreshold: number;
  pointsToNextLevel: number;
}

describe('POST /api/gamification/evaluate: points, levels and badges, once per confirmed session', function () {
  this.timeout(120_000);
  let api: TestApi;
  let admin: string;
  let business: string;
  let organizationId: string;
  let jobId: string;

  before(async () => {
    api = await startTestApi();
    admin = await sessionToken(await createAdmin());
    const owner = await createBusiness('pro');
    organizationId = owner.organizationId;
    business = await sessionToken(owner.claims);
    jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 10 },
    });
  });
  after(() => api.stop());

  const evaluate = (body: unknown, token = admin) =>
    api.request('POST', '/api/gamification/evaluate', { token, body });
  const body = (session: TesterSession, signals: Record<string, unknown> = {}) => ({
    sessionId: session.sessionId,
    testerId: session.tester.sub,
    signals: { sessionCompleted: true, businessRating: 5, ...signals },
  });
  /**
   * A session analysed, confirmed by its tester and rated `stars` by the organization (written as
   * the rating endpoint would, without its hand-over to the automatic evaluation, which would
   * otherwise answer first).
   */
  async function ratedSession(stars: number | null): Promise<TesterSession> {
    const session = await analyzedSession(api, business, jobId);
    const confirmed = await api.request('POST', `/api/sessions/${session.sessionId}/confirm`, {
      body: { rating: 3 },
      token: session.testerToken,
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('sessions')
        .set({ business_rating: stars, business_rated_at: stars === null ? null : new Date() })
        .where('id', '=', session.sessionId)
        .execute(),
    );
    return session;
  }

  it('pays each signal up to its cap, from the records where the service knows them, and awards the badge crossed', async () => {
    const session = await ratedSession(5);
    const answer = await evaluate(body(session, { thinkAloudScore: 0.5 }));
    assert.equal(answer.status, 200, answer.text);
    const result = answer.body.data as Evaluation;
    assert.deepEqual(Object.keys(result), [
      'testerId',
      'sessionId',
      'pointsAwarded',
      'pointsBreakdown',
      'newTotalPoints',
      'previousLevel',
      'currentLevel',
      'leveledUp',
      'badgesAwarded',
      'nextLevelThreshold',
      'pointsToNextLevel',
      'signalSources',
    ]);
    // Completed 50, rated 5 stars 30, think-aloud 0.5 of 20, on time 10; a first session has no streak.
    assert.deepEqual(result.pointsBreakdown, {
      sessionCompleted: 50,
      businessRating: 30,
      thinkAloudScore: 10,
      completedOnTime: 10,
      streakBonus: 0,
    });
    assert.equal(result.pointsAwarded, 100);
    assert.deepEqual(
      [result.newTotalPoints, result.previousLevel, result.currentLevel, result.leveledUp],
      [100, 1, 1, false],
    );
    assert.deepEqual([result.nextLevelThreshold, result.pointsToNextLevel], [500, 400]);
    assert.deepEqual(
      result.badgesAwarded.map((badge) => [badge.badgeId, badge.name, badge.iconUrl]),
      [['first_steps', 'First steps', `${api.config.http.baseUrl}/badges/first_steps.svg`]],
    );
    // The tester reads them in their profile.
    const profile = (await api.request('GET', '/api/testers/me', { token: session.testerToken })).body
      .data as {
      points: number;
      level: number;
      badges: { badgeId: string; iconUrl: string }[];
    };
    assert.deepEqual(
      [profile.points, profile.level, profile.badges.map((badge) => badge.badgeId)],
      [100, 1, ['first_steps']],
    );
    // The icon behind iconUrl: a public SVG named after the badge.
    const icon = await fetch(`${api.url}/badges/first_steps.svg`);
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.match(await icon.text(), /<title id="t">First steps<\/title>/);
    assert.equal((await fetch(`${api.url}/badges/nothing.svg`)).status, 404);
    const ledger = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('point_ledger')
        .select(['signal', 'points'])
        .where('session_id', '=', session.sessionId)
        .orderBy('signal')
        .execute(),
    );
    assert.deepEqual(ledger, [
      { signal: 'business_rating', points: 30 },
      { signal: 'on_time', points: 10 },
      { signal: 'session_completed', points: 50 },
      { signal: 'think_aloud', points: 10 },
    ]);
  });

  it('a repeat, also several at once, returns the first answer byte for byte and changes nothing', async () => {
    const session = await ratedSession(3);
    const answers = await Promise.all([1, 2, 3].map(() => evaluate(body(session, { businessRating: 3 }))));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200],
    );
    const later = await evaluate(body(session, { businessRating: 3, thinkAloudScore: 1 }));
    for (const answer of [...answers, later]) assert.equal(answer.text, answers[0]!.text);
    assert.equal(
      (answers[0]!.body.data as Evaluation).pointsBreakdown.businessRating,
      0,
      'three stars pay nothing',
    );
    const rows = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('point_ledger').select('signal').where('session_id', '=', session.sessionId).execute(),
    );
    assert.equal(rows.length, 2, 'completed and on time, paid once');
  });

  it("refuses what it cannot count: a session not confirmed, another tester's session, signals out of range", async () => {
    const unconfirmed = await analyzedSession(api, business, jobId);
    const early = await evaluate(body(unconfirmed));
    assert.equal(early.status, 409);
    assert.equal(early.body.error, 'Session must be confirmed to evaluate (it is analyzed)');
    const session = await ratedSession(4);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...body(session), testerId: unconfirmed.tester.sub }, /^testerId: Not the session's tester/],
      [body(session, { businessRating: 6 }), /^signals\.businessRating: Must be 1 to 5/],
      [body(session, { thinkAloudScore: 1.5 }), /^signals\.thinkAloudScore: Must be 0 to 1/],
    ];
    for (const [request, message] of cases) {
      const answer = await evaluate(request);
      assert.equal(answer.status, 422, `${JSON.stringify(request)}: ${answer.text}`);
      assert.match(String(answer.body.error), message);
    }
    // Identifiers are opaque strings: one that names nothing is not found, whatever its form.
    assert.equal((await evaluate({ ...body(session), sessionId: 'abc' })).status, 404);
    assert.equal((await evaluate({ ...body(session), sessionId: randomUUID() })).status, 404);
    assert.equal((await evaluate({ ...body(session), testerId: randomUUID() })).status, 404);
    for (const token of [business, session.testerToken])
      assert.equal((await evaluate(body(session), token)).status, 403);
    const evaluated = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('gamification_evaluations')
        .select('session_id')
        .where('session_id', '=', session.sessionId)
        .execute(),
    );
    assert.deepEqual(evaluated, [], 'nothing refused was recorded');
  });

  it("counts the records' signals over the caller's, and says where each came from; a repeat answers the same whatever it sends", async () => {
    const session = await ratedSession(4);
    const first = await evaluate(
      body(session, {
        sessionCompleted: false,
        businessRating: 2,
        completedOnTime: false,
        previousStreakCount: 7,
        thinkAloudScore: 0.5,
      }),
    );
    assert.equal(first.status, 200, first.text);
    const result = first.body.data as Evaluation & { signalSources: Record<string, string> };
    assert.deepEqual(result.signalSources, {
      sessionCompleted: 'records',
      businessRating: 'records',
      thinkAloudScore: 'caller',
      completedOnTime: 'records',
      previousStreakCount: 'records',
    });
    assert.deepEqual(result.pointsBreakdown, {
      sessionCompleted: 50,
      businessRating: 30,
      thinkAloudScore: 10,
      completedOnTime: 10,
      streakBonus: 0,
    });
    const repeat = await evaluate(
      body(session, { businessRating: 1, completedOnTime: true, thinkAloudScore: 1 }),
    );
    assert.equal(repeat.status, 200);
    assert.equal(repeat.text, first.text, 'byte for byte');
    // Without a rating on record, the caller's counts; without a think-aloud score, nothing does.
    const unrated = await ratedSession(null);
    const answer = await evaluate(body(unrated, { businessRating: 5 }));
    assert.equal(answer.status, 200, answer.text);
    const sources = (answer.body.data as { signalSources: Record<string, string> }).signalSources;
    assert.equal(sources.businessRating, 'caller');
    assert.equal(sources.thinkAloudScore, 'none');
  });

  it('the third consecutive confirmed session pays the streak bonus; crossing 500 levels up, awards the badge and tells the tester', async () => {
    const session = await ratedSession(5);
    // Two earlier confirmed sessions of the same tester, and 400 points from before.
    for (const daysAgo of [20, 10]) {
      const studyId = await insertStudy(organizationId, { status: 'completed' });
      await asSystem(testDatabase(), (tx) =>
        tx
          .insertInto('sessions')
          .values({
            organization_id: organizationId,
            study_id: studyId,
            tester_id: session.tester.sub,
            status: 'confirmed',
            started_at: new Date(Date.now() - daysAgo * 86_400_000),
            confirmed_at: new Date(Date.now() - daysAgo * 86_400_000),
          })
          .execute(),
      );
    }
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('point_ledger')
        .values({ tester_id: session.tester.sub, signal: 'adjustment', points: 400, note: 'earlier work' })
        .execute(),
    );
    const answer = await evaluate(body(session, { previousStreakCount: 2 }));
    assert.equal(answer.status, 200, answer.text);
    const result = answer.body.data as Evaluation;
    assert.equal(result.pointsBreakdown.streakBonus, 20);
    assert.equal(result.pointsAwarded, 110);
    assert.deepEqual(
      [
        result.newTotalPoints,
        result.previousLevel,
        result.currentLevel,
        result.leveledUp,
        result.nextLevelThreshold,
        result.pointsToNextLevel,
      ],
      [510, 1, 2, true, 1000, 490],
    );
    // Every threshold reached and not held: 100 (reached through the adjustment) and 500.
    assert.deepEqual(
      result.badgesAwarded.map((badge) => badge.badgeId),
      ['first_steps', 'regular'],
    );
    await waitFor(async () => {
      const notices = await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('notification_outbox')
          .select(['status', 'body'])
          .where('kind', '=', 'level_up')
          .where('user_id', '=', session.tester.sub)
          .execute(),
      );
      return notices.length === 1 && notices[0]!.status === 'sent' && notices[0]!.body.includes('level 2');
    });
    // No chat linked: by email, which alone carries a subject.
    const notice = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('notification_outbox')
        .select(['channel', 'subject'])
        .where('kind', '=', 'level_up')
        .where('user_id', '=', session.tester.sub)
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual(notice, { channel: 'email', subject: 'You reached level 2' });
  });
});
