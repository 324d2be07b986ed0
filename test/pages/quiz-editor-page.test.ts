import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createAdmin, createBusiness, createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { countOf, PageClient, textOfId } from './page-client.ts';
import { SHORT_QUIZ } from './short-quiz.ts';

interface QuizRecord {
  version: number;
  passingScore: number;
  updatedAt: string;
  questions: {
    text: string;
    options: { id: string; text: string }[];
    correctOptionId: string;
    points: number;
  }[];
}

/** The form as the page shows SHORT_QUIZ, to change one field at a time. */
const shortQuizForm = (): Record<string, string> => ({
  passingScore: '50',
  'q-1-text': 'Which key moves focus forward?',
  'q-1-points': '1',
  'q-1-o-1-text': 'Tab',
  'q-1-o-2-text': 'Home',
  'q-1-correct': '1',
  'q-2-text': 'What does alt text describe?',
  'q-2-points': '1',
  'q-2-o-1-text': 'An image',
  'q-2-o-2-text': 'A font',
  'q-2-correct': '1',
});

const errorAt = (html: string, name: string) => textOfId(html, `field-${name}-error`).replace(/^Error: /, '');

describe("the admins' quiz editor (/admin/quiz) over the commands of /api/admin/quiz", function () {
  this.timeout(60_000);
  let api: TestApi;
  let adminJwt: string;
  const current = async () =>
    (await api.request('GET', '/api/admin/quiz', { token: adminJwt })).body.data as QuizRecord;
  const signedIn = async () => {
    const client = new PageClient(api.url);
    client.useSession(adminJwt);
    await client.get('/admin/quiz');
    return client;
  };

  before(async () => {
    api = await startTestApi({ worker: false, env: { TRUST_PROXY: '1' } });
    adminJwt = await sessionToken(await createAdmin());
  });
  beforeEach(async () => {
    const published = await api.request('POST', '/api/admin/quiz', { token: adminJwt, body: SHORT_QUIZ });
    assert.equal(published.status, 201, published.text);
  });
  after(() => api.stop());

  it("is the admins': linked from their dashboard; a business or a tester gets the 404 page", async () => {
    const client = await signedIn();
    assert.match((await client.get('/dashboard')).html, /href="\/admin\/quiz"/);
    for (const claims of [(await createBusiness()).claims, await createTester()]) {
      const other = new PageClient(api.url);
      other.useSession(await sessionToken(claims));
      assert.equal((await other.get('/admin/quiz')).status, 404);
    }
  });

  it('shows the current version: each question, its options and its right answer', async () => {
    const { version } = await current();
    const page = await (await signedIn()).get('/admin/quiz');
    assert.equal(page.status, 200);
    assert.equal(countOf(page.html, /<h1>/), 1);
    assert.ok(page.html.includes(`Version ${version} is the one testers take`));
    assert.match(page.html, /name="q-1-text"[^>]*>Which key moves focus forward\?<\/textarea>/);
    assert.match(page.html, /name="q-2-o-2-text" type="text" value="A font"/);
    assert.match(page.html, /name="q-1-correct" value="1" checked/);
    assert.match(page.html, /Save changes to version \d+/);
    assert.match(page.html, new RegExp(`Publish as version ${version + 1}`));
  });

  it('saves in place: the texts, the score and the right answer change, an empty option is left out', async () => {
    const before = await current();
    const client = await signedIn();
    const saved = await client.post('/admin/quiz', {
      ...shortQuizForm(),
      version: String(before.version),
      passingScore: '60',
      'q-1-text': 'Which key moves focus forward on a web page?',
      'q-1-o-2-text': '',
      'q-1-o-3-text': 'Shift+Tab',
      'q-1-o-4-text': 'Tab',
      'q-1-correct': '4',
      action: 'update',
    });
    assert.equal(saved.status, 303, saved.html);
    assert.equal(saved.location, '/admin/quiz?done=updated');
    const after = await current();
    assert.equal(after.version, before.version, 'the same version');
    assert.equal(after.passingScore, 60);
    assert.equal(after.questions[0]!.text, 'Which key moves focus forward on a web page?');
    assert.deepEqual(
      after.questions[0]!.options.map((option) => option.text),
      ['Tab', 'Shift+Tab', 'Tab'],
    );
    assert.equal(
      after.questions[0]!.correctOptionId,
      after.questions[0]!.options[2]!.id,
      'the right one followed its option',
    );
    assert.match((await client.get(saved.location)).html, /Quiz saved/);
  });

  it('saving a form read from an older version refuses to overwrite the newer one (409)', async () => {
    const { version } = await current();
    const client = await signedIn();
    assert.match((await client.get('/admin/quiz')).html, new RegExp(`name="version" value="${version}"`));
    const newer = await api.request('POST', '/api/admin/quiz', { token: adminJwt, body: SHORT_QUIZ });
    assert.equal(newer.status, 201);
    const before = await current();
    const stale = await client.post('/admin/quiz', {
      ...shortQuizForm(),
      'q-1-text': 'An edit of the older version',
      version: String(version),
      action: 'update',
    });
    assert.equal(stale.status, 409);
    assert.match(
      stale.html,
      new RegExp(`Version ${version + 1} was published after you opened version ${version}`),
    );
    assert.deepEqual(await current(), before);
  });

  it('publishes the form as the next version', async () => {
    const before = await current();
    const published = await (await signedIn()).post('/admin/quiz', { ...shortQuizForm(), action: 'publish' });
    assert.equal(published.location, '/admin/quiz?done=published');
    const after = await current();
    assert.equal(after.version, before.version + 1);
    assert.equal(after.questions.length, 2);
  });

  it('refuses a wrong quiz at each field with the values kept, and changes nothing', async () => {
    const before = await current();
    const client = await signedIn();
    const page = await client.post('/admin/quiz', {
      ...shortQuizForm(),
      version: String(before.version),
      passingScore: '150',
      'q-1-o-2-text': '',
      'q-2-points': 'many',
      'q-2-correct': '',
      action: 'update',
    });
    assert.equal(page.status, 422);
    assert.equal(errorAt(page.html, 'passingScore'), 'Must be 0 to 100');
    assert.equal(errorAt(page.html, 'q-1-options'), 'At least two options are required');
    assert.equal(errorAt(page.html, 'q-2-points'), 'Must be a number');
    assert.equal(errorAt(page.html, 'q-2-correct'), 'Required');
    assert.match(page.html, /name="q-2-points" type="number" value="many"/);
    assert.match(
      page.html,
      /<a href="#field-q-1-options">Question 1, options: At least two options are required<\/a>/,
    );
    const empty = await client.post('/admin/quiz', { passingScore: '50', 'q-1-text': '', action: 'update' });
    assert.equal(errorAt(empty.html, 'questions'), 'At least one question is required');
    assert.deepEqual(await current(), before);
  });

  it('"Add a question" and "Add an option" show the form again with one more row, saving nothing', async () => {
    const before = await current();
    const client = await signedIn();
    const more = await client.post('/admin/quiz', { ...shortQuizForm(), add: 'question' });
    assert.equal(more.status, 200);
    assert.equal(countOf(more.html, /name="q-\d-text"/), 3);
    const option = await client.post('/admin/quiz', { ...shortQuizForm(), add: 'option-2' });
    assert.equal(countOf(option.html, /name="q-2-o-\d-text"/), 3);
    assert.equal(countOf(option.html, /name="q-1-o-\d-text"/), 2);
    assert.deepEqual(await current(), before);
  });
});
