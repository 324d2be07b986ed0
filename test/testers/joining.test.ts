import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { QUIZ_RETRY_COOLDOWN_MS } from '../../lib/quiz-scoring.ts';
import { activeStudy, waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';

interface Quiz {
  quizId: string;
  version: number;
  passingScore: number;
  questions: { questionId: string; options: { id: string }[]; points: number; correctOptionId?: string }[];
}

/** Three questions of 1, 1 and 2 points; the right option is always `a`. 60 % passes. */
const QUIZ = {
  passingScore: 60,
  questions: [
    {
      text: 'Which key moves focus forward?',
      options: [
        { id: 'a', text: 'Tab' },
        { id: 'b', text: 'Home' },
      ],
      correctOptionId: 'a',
      points: 1,
    },
    {
      text: 'What does alt text describe?',
      options: [
        { id: 'a', text: 'An image' },
        { id: 'b', text: 'A font' },
      ],
      correctOptionId: 'a',
      points: 1,
    },
    {
      text: 'Which ratio does WCAG AA ask of body text?',
      options: [
        { id: 'a', text: '4.5:1' },
        { id: 'b', text: '2:1' },
        { id: 'c', text: '1:1' },
      ],
      correctOptionId: 'a',
      points: 2,
    },
  ],
};

describe('joining as a tester: the profile and the qualification quiz (/api/testers/me)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let admin: string;

  before(async () => {
    api = await startTestApi();
    admin = await sessionToken(await createAdmin());
  });
  after(() => api.stop());

  async function register(): Promise<{ id: string; token: string }> {
    const registered = await api.request('POST', '/api/auth/register', {
      body: {
        email: `joiner-${randomUUID()}@example.com`,
        password: 'a long enough password',
        role: 'tester',
      },
    });
    assert.equal(registered.status, 201, registered.text);
    const data = registered.body.data as { user: { id: string }; sessionToken: string };
    return { id: data.user.id, token: data.sessionToken };
  }

  async function publishQuiz(): Promise<Quiz> {
    const published = await api.request('POST', '/api/admin/quiz', { token: admin, body: QUIZ });
    assert.equal(published.status, 201, published.text);
    const read = await api.request('GET', '/api/testers/me/quiz', { token: (await register()).token });
    return read.body.data as Quiz;
  }

  const answersFor = (quiz: Quiz, pick: (index: number) => string) =>
    quiz.questions.map((question, index) => ({ questionId: question.questionId, optionId: pick(index) }));
  const attempt = (token: string, body: unknown) =>
    api.request('POST', '/api/testers/me/quiz/attempts', { token, body });
  const profileOf = async (token: string) => {
    const read = await api.request('GET', '/api/testers/me', { token });
    assert.equal(read.status, 200, read.text);
    return read.body.data as Record<string, unknown>;
  };
  const fillIn = (token: string, country = 'GB') =>
    api.request('PATCH', '/api/testers/me', {
      token,
      body: { country, birthYear: 1990, devices: ['desktop'], languages: ['en'] },
    });

  it('registration gives the tester an empty pending profile, which the tester fills in and edits', async () => {
    const tester = await register();
    const fresh = await profileOf(tester.token);
    assert.deepEqual(Object.keys(fresh).sort(), [
      'accessNeeds',
      'assistiveTechnologies',
      'badges',
      'birthYear',
      'country',
      'createdAt',
      'devices',
      'displayName',
      'email',
      'languages',
      'level',
      'nextQuizAttemptAt',
      'points',
      'quiz',
      'status',
      'testerId',
      'updatedAt',
    ]);
    assert.equal(fresh.testerId, tester.id);
    assert.equal(fresh.status, 'pending');
    assert.deepEqual([fresh.country, fresh.birthYear, fresh.devices, fresh.quiz], [null, null, [], null]);
    assert.deepEqual([fresh.points, fresh.level, fresh.badges], [0, 1, []]);

    const filled = await api.request('PATCH', '/api/testers/me', {
      token: tester.token,
      body: {
        country: 'NZ',
        birthYear: 1985,
        devices: ['mobile', 'desktop'],
        languages: ['en-NZ', 'mi'],
        assistiveTechnologies: ['screen_reader'],
        accessNeeds: ['blind'],
      },
    });
    assert.equal(filled.status, 200, filled.text);
    const edited = await api.request('PATCH', '/api/testers/me', {
      token: tester.token,
      body: { accessNeeds: [] },
    });
    const profile = edited.body.data as Record<string, unknown>;
    assert.deepEqual(
      [
        profile.country,
        profile.birthYear,
        profile.devices,
        profile.languages,
        profile.assistiveTechnologies,
        profile.accessNeeds,
      ],
      ['NZ', 1985, ['mobile', 'desktop'], ['en-NZ', 'mi'], ['screen_reader'], []],
    );
    assert.equal(profile.status, 'pending', 'filling in the profile does not qualify the tester');
  });

  it('refuses bad profile fields with 422 naming the field, and non-testers with 403', async () => {
    const tester = await register();
    const cases: [unknown, RegExp][] = [
      [{}, /at least one field/],
      [{ country: 'XX' }, /^country: /],
      [{ country: 'gb' }, /^country: /],
      [{ birthYear: new Date().getUTCFullYear() - 5 }, /^birthYear: Testers are at least 13/],
      [{ birthYear: 1850 }, /^birthYear: /],
      [{ devices: [] }, /^devices: At least one device/],
      [{ devices: ['desktop', 'desktop'] }, /^devices: Each device at most once/],
      [{ devices: ['watch'] }, /^devices\[0\]: /],
      [{ languages: ['not a tag!'] }, /^languages\[0\]: /],
      [{ accessNeeds: ['none'] }, /^accessNeeds\[0\]: /],
    ];
    for (const [body, message] of cases) {
      const answer = await api.request('PATCH', '/api/testers/me', { token: tester.token, body });
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(String(answer.body.error), message);
    }
    assert.equal((await profileOf(tester.token)).country, null, 'nothing changed');
    const business = await sessionToken((await createBusiness()).claims);
    for (const token of [business, admin]) {
      assert.equal((await api.request('GET', '/api/testers/me', { token })).status, 403);
      assert.equal((await api.request('GET', '/api/testers/me/quiz', { token })).status, 403);
    }
    assert.equal((await api.request('GET', '/api/testers/me')).status, 401);
  });

  it('the quiz comes without its answers; an attempt is refused until the profile is filled in, for a stale quiz and for bad answers', async () => {
    const quiz = await publishQuiz();
    assert.equal(quiz.questions.length, 3);
    assert.ok(quiz.questions.every((question) => !('correctOptionId' in question)));
    const tester = await register();
    const right = answersFor(quiz, () => 'a');
    const early = await attempt(tester.token, { quizId: quiz.quizId, answers: right });
    assert.equal(early.status, 409);
    assert.match(String(early.body.error), /Fill in your profile/);
    assert.equal((await fillIn(tester.token)).status, 200);

    // An id of another form names no quiz either: opaque, as every identifier (spec).
    for (const quizId of [randomUUID(), 'v1']) {
      const stale = await attempt(tester.token, { quizId, answers: right });
      assert.equal(stale.status, 409);
      assert.equal(
        stale.body.error,
        `The quiz has changed (version ${quiz.version} is current): fetch it again`,
      );
    }
    const bad: [unknown, RegExp][] = [
      [
        { quizId: quiz.quizId, answers: [...right.slice(1), { questionId: randomUUID(), optionId: 'a' }] },
        /^answers\[2\]\.questionId: Not a question of this quiz/,
      ],
      [{ quizId: quiz.quizId, answers: [...right, right[0]] }, /^answers\[3\]\.questionId: Answered twice/],
      [{ quizId: quiz.quizId, answers: right.slice(1) }, /^answers: Every question needs an answer/],
      [
        { quizId: quiz.quizId, answers: [{ ...right[0]!, optionId: 'z' }, ...right.slice(1)] },
        /^answers\[0\]\.optionId: Not an option/,
      ],
      [{ quizId: 1, answers: right }, /^quizId: /],
      [{ quizId: quiz.quizId, answers: [] }, /^answers: At least one answer/],
    ];
    for (const [body, message] of bad) {
      const answer = await attempt(tester.token, body);
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(String(answer.body.error), message);
    }
    const attempts = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('quiz_attempts').select('id').where('tester_id', '=', tester.id).execute(),
    );
    assert.equal(attempts.length, 0, 'no refused attempt is stored');
  });

  it('a failed attempt is stored with its version; the next waits for the cool-down; a pass makes the tester active for good and matchable', async () => {
    const quiz = await publishQuiz();
    const tester = await register();
    assert.equal((await fillIn(tester.token, 'IN')).status, 200);
    // Only the 2-point question right: 50 %, under the 60 % to pass.
    const failed = await attempt(tester.token, {
      quizId: quiz.quizId,
      answers: answersFor(quiz, (i) => (i === 2 ? 'a' : 'b')),
    });
    assert.equal(failed.status, 201, failed.text);
    const result = failed.body.data as Record<string, unknown>;
    assert.deepEqual(
      { ...result, attemptId: undefined, completedAt: undefined, nextAttemptAt: undefined },
      {
        attemptId: undefined,
        quizId: quiz.quizId,
        version: quiz.version,
        score: 50,
        passingScore: 60,
        passed: false,
        completedAt: undefined,
        nextAttemptAt: undefined,
      },
    );
    assert.equal(
      Date.parse(String(result.nextAttemptAt)) - Date.parse(String(result.completedAt)),
      QUIZ_RETRY_COOLDOWN_MS,
    );
    const stored = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('quiz_attempts')
        .selectAll()
        .where('id', '=', String(result.attemptId))
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual(
      [stored.quiz_id, stored.quiz_version, stored.score, stored.passed],
      [quiz.quizId, quiz.version, 50, false],
    );
    assert.equal(stored.answers.length, 3);
    const afterFail = await profileOf(tester.token);
    assert.equal(afterFail.status, 'pending');
    assert.equal(afterFail.nextQuizAttemptAt, result.nextAttemptAt);

    const tooSoon = await attempt(tester.token, {
      quizId: quiz.quizId,
      answers: answersFor(quiz, () => 'a'),
    });
    assert.equal(tooSoon.status, 409);
    assert.match(String(tooSoon.body.error), /^You may take the quiz again from /);

    // A day later (the attempt moved back past the cool-down): all right, 100 %.
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('quiz_attempts')
        .set({ created_at: new Date(Date.now() - QUIZ_RETRY_COOLDOWN_MS - 1000) })
        .where('tester_id', '=', tester.id)
        .execute(),
    );
    const passed = await attempt(tester.token, { quizId: quiz.quizId, answers: answersFor(quiz, () => 'a') });
    assert.equal(passed.status, 201, passed.text);
    assert.deepEqual(
      [
        (passed.body.data as Record<string, unknown>).score,
        (passed.body.data as Record<string, unknown>).passed,
        (passed.body.data as Record<string, unknown>).nextAttemptAt,
      ],
      [100, true, null],
    );
    const qualified = await profileOf(tester.token);
    assert.equal(qualified.status, 'active');
    assert.deepEqual(
      { ...(qualified.quiz as object), completedAt: undefined },
      { passed: true, score: 100, version: quiz.version, completedAt: undefined },
    );
    const again = await attempt(tester.token, { quizId: quiz.quizId, answers: answersFor(quiz, () => 'a') });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'You have passed the quiz already');

    // A new version does not undo the pass.
    const newer = await publishQuiz();
    assert.equal(newer.version, quiz.version + 1);
    const still = await profileOf(tester.token);
    assert.deepEqual([still.status, (still.quiz as { passed: boolean }).passed], ['active', true]);

    // Matched without anyone touching the database: a study in India proposes the new tester.
    const business = await sessionToken((await createBusiness('pro')).claims);
    const jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: { countries: ['IN'], devices: ['desktop'], testerCount: 1 },
    });
    await waitFor(async () => {
      const rows = await asSystem(testDatabase(), (tx) =>
        tx.selectFrom('proposals').select('tester_id').where('study_id', '=', jobId).execute(),
      );
      return rows.some((row) => row.tester_id === tester.id);
    });
  });

  it('two attempts at once: one is scored, the other waits for it and is refused', async () => {
    const quiz = await publishQuiz();
    const tester = await register();
    assert.equal((await fillIn(tester.token)).status, 200);
    const wrong = answersFor(quiz, () => 'b');
    const answers = await Promise.all(
      [1, 2].map(() => attempt(tester.token, { quizId: quiz.quizId, answers: wrong })),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409]);
    const attempts = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('quiz_attempts').select('id').where('tester_id', '=', tester.id).execute(),
    );
    assert.equal(attempts.length, 1);
  });
});
