import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { PageClient, textOfId } from './page-client.ts';
import { SHORT_QUIZ } from './short-quiz.ts';

const profileRow = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('tester_profiles')
      .select(['country', 'birth_year', 'devices', 'languages', 'access_needs', 'status', 'quiz_passed'])
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow(),
  );

describe('joining as a tester on the pages: /register, /profile, /quiz', function () {
  this.timeout(120_000);
  let api: TestApi;
  let questionIds: string[];

  before(async () => {
    api = await startTestApi({ worker: false, env: { TRUST_PROXY: '1' } });
    const admin = await sessionToken(await createAdmin());
    const published = await api.request('POST', '/api/admin/quiz', { token: admin, body: SHORT_QUIZ });
    assert.equal(published.status, 201, published.text);
    const read = await api.request('GET', '/api/admin/quiz', { token: admin });
    questionIds = (read.body.data as { questions: { questionId: string }[] }).questions.map(
      (q) => q.questionId,
    );
  });
  after(() => api.stop());

  /** A tester registered through the registration page, signed in. */
  async function joiner(): Promise<{ client: PageClient; id: string }> {
    const client = new PageClient(api.url);
    await client.get('/register');
    const email = `page-joiner-${randomUUID()}@example.com`;
    const done = await client.post('/register', {
      role: 'tester',
      email,
      password: 'a long enough password',
    });
    assert.equal(done.status, 303);
    const me = await api.request('GET', '/api/auth/me', { token: client.cookies.get('session')! });
    return { client, id: (me.body.data as { id: string }).id };
  }

  const fillIn = (client: PageClient) =>
    client.post('/profile', { country: 'gb', birthYear: '1990', devices: 'desktop', languages: 'en, fr-CA' });

  it('the profile page shows a new tester as pending, without quiz, points or badges', async () => {
    const { client } = await joiner();
    const page = await client.get('/profile');
    assert.equal(page.status, 200);
    assert.match(page.html, /pass the qualification quiz first/);
    assert.match(page.html, /<dt>Quiz<\/dt><dd>Not taken yet/);
    assert.match(page.html, /<dt>Points<\/dt><dd>0<\/dd><dt>Level<\/dt><dd>1<\/dd>/);
    assert.match(page.html, /No badges yet/);
    const quiz = await client.get('/quiz');
    assert.match(quiz.html, /Fill in your country and devices/);
    assert.doesNotMatch(quiz.html, /action="\/quiz"/);
  });

  it("is the tester's own: a business gets the 404 page", async () => {
    const business = new PageClient(api.url);
    business.useSession(await sessionToken((await createBusiness()).claims));
    assert.equal((await business.get('/profile')).status, 404);
    assert.equal((await business.get('/quiz')).status, 404);
  });

  it('refuses a bad profile field by field with the values kept, and saves a good one', async () => {
    const { client, id } = await joiner();
    await client.get('/profile');
    const bad = await client.post('/profile', {
      country: 'XX',
      birthYear: '1800',
      languages: 'en, !!',
      accessNeeds: 'low_vision',
    });
    assert.equal(bad.status, 422);
    assert.match(textOfId(bad.html, 'field-country-error'), /ISO 3166-1 alpha-2/);
    assert.equal(textOfId(bad.html, 'field-birthYear-error'), 'Error: Must be 1900 or later');
    assert.equal(textOfId(bad.html, 'field-devices-error'), 'Error: At least one device is required');
    assert.ok(textOfId(bad.html, 'field-languages-error').length > 'Error: '.length);
    assert.match(bad.html, /id="field-country"[^>]*value="XX"/);
    assert.match(bad.html, /id="field-accessNeeds-low_vision"[^>]*checked/);
    assert.equal((await profileRow(id)).country, null);

    const saved = await fillIn(client);
    assert.equal(saved.status, 303);
    assert.equal(saved.location, '/profile?saved=1');
    const row = await profileRow(id);
    assert.deepEqual(
      { country: row.country, birthYear: row.birth_year, devices: row.devices, languages: row.languages },
      { country: 'GB', birthYear: 1990, devices: ['desktop'], languages: ['en', 'fr-CA'] },
    );
  });

  it('the quiz: every question needs an answer; a fail says when to try again; a pass makes the tester active', async () => {
    const failing = await joiner();
    await failing.client.get('/profile');
    await fillIn(failing.client);
    const quiz = await failing.client.get('/quiz');
    assert.equal(quiz.status, 200);
    for (const id of questionIds) assert.ok(quiz.html.includes(`name="answer-${id}"`));
    const quizId = /name="quizId" value="([^"]+)"/.exec(quiz.html)![1]!;

    const partial = await failing.client.post('/quiz', { quizId, [`answer-${questionIds[0]}`]: 'b' });
    assert.equal(partial.status, 422);
    assert.equal(textOfId(partial.html, `field-answer-${questionIds[1]}-error`), 'Error: Choose an answer');
    assert.match(partial.html, new RegExp(`id="field-answer-${questionIds[0]}-b"[^>]*checked`));

    const wrong = await failing.client.post('/quiz', {
      quizId,
      [`answer-${questionIds[0]}`]: 'b',
      [`answer-${questionIds[1]}`]: 'b',
    });
    assert.equal(wrong.status, 303);
    const result = await failing.client.get(wrong.location!);
    assert.match(
      result.html,
      /You scored 0 %; 50 % passes\. You may try again from \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
    );
    assert.equal((await profileRow(failing.id)).status, 'pending');

    const passing = await joiner();
    await passing.client.get('/profile');
    await fillIn(passing.client);
    await passing.client.get('/quiz');
    const right = await passing.client.post('/quiz', {
      quizId,
      [`answer-${questionIds[0]}`]: 'a',
      [`answer-${questionIds[1]}`]: 'a',
    });
    assert.equal(right.status, 303);
    assert.match((await passing.client.get(right.location!)).html, /You passed the quiz with 100 %/);
    const row = await profileRow(passing.id);
    assert.deepEqual({ status: row.status, passed: row.quiz_passed }, { status: 'active', passed: true });
    const profile = await passing.client.get('/profile');
    assert.match(profile.html, /Active: you can be matched to studies/);
    const again = await passing.client.post('/quiz', { quizId, [`answer-${questionIds[0]}`]: 'a' });
    assert.equal(again.status, 409);
    assert.match(again.html, /You have passed the quiz already/);
  });
});
