import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createAdmin } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';

interface QuizRecord {
  quizId: string;
  version: number;
  passingScore: number;
  questions: {
    questionId: string;
    text: string;
    type: string;
    options: { id: string; text: string }[];
    correctOptionId: string;
    points: number;
  }[];
  updatedAt: string;
}

const question = (text: string, points = 1) => ({
  text,
  options: [
    { id: 'yes', text: 'Yes' },
    { id: 'no', text: 'No' },
  ],
  correctOptionId: 'yes',
  points,
});

describe('the admin quiz (GET, POST and PATCH /api/admin/quiz)', () => {
  let api: TestApi;
  let admin: string;
  before(async () => {
    api = await startTestApi({ worker: false });
    admin = await sessionToken(await createAdmin());
  });
  after(() => api.stop());

  const call = (method: 'GET' | 'POST' | 'PATCH', body?: unknown) =>
    api.request(method, '/api/admin/quiz', { token: admin, body });
  const current = async () => {
    const read = await call('GET');
    assert.equal(read.status, 200, read.text);
    return read.body.data as QuizRecord;
  };

  it('publishes a new version (version + 1), active at once, and reads it back with the correct answers', async () => {
    const before = await call('POST', { passingScore: 50, questions: [question('Is this first?')] });
    assert.equal(before.status, 201, before.text);
    const published = await call('POST', {
      passingScore: 75,
      questions: [question('Do screen readers read alt text?', 2), question('Is Tab a focus key?')],
    });
    assert.equal(published.status, 201, published.text);
    const answer = published.body.data as {
      quizId: string;
      version: number;
      questionCount: number;
      publishedAt: string;
    };
    assert.deepEqual(Object.keys(answer).sort(), ['publishedAt', 'questionCount', 'quizId', 'version']);
    assert.equal(answer.version, (before.body.data as { version: number }).version + 1);
    assert.equal(answer.questionCount, 2);

    const quiz = await current();
    assert.deepEqual(Object.keys(quiz).sort(), [
      'passingScore',
      'questions',
      'quizId',
      'updatedAt',
      'version',
    ]);
    assert.equal(quiz.quizId, answer.quizId);
    assert.equal(quiz.passingScore, 75);
    assert.deepEqual(
      quiz.questions.map((q) => [q.text, q.type, q.correctOptionId, q.points, q.options.length]),
      [
        ['Do screen readers read alt text?', 'multiple_choice', 'yes', 2, 2],
        ['Is Tab a focus key?', 'multiple_choice', 'yes', 1, 2],
      ],
    );
  });

  it('changes the current version in place: omitted fields keep their values', async () => {
    await call('POST', { passingScore: 60, questions: [question('Kept?'), question('Also kept?')] });
    const before = await current();
    const patched = await call('PATCH', { passingScore: 80 });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(Object.keys(patched.body.data as object).sort(), [
      'passingScore',
      'quizId',
      'updatedAt',
    ]);
    const after = await current();
    assert.deepEqual([after.quizId, after.version, after.passingScore], [before.quizId, before.version, 80]);
    assert.deepEqual(after.questions, before.questions, 'questions kept');

    const reworded = await call('PATCH', { questions: [question('The only question now', 3)] });
    assert.equal(reworded.status, 200, reworded.text);
    const last = await current();
    assert.deepEqual([last.version, last.passingScore], [before.version, 80]);
    assert.deepEqual(
      last.questions.map((q) => [q.text, q.points]),
      [['The only question now', 3]],
    );
  });

  it('validates questions: options unique, the correct option among them, points 1 or more; 422 naming the field, nothing published', async () => {
    const before = await current();
    const cases: [unknown, RegExp][] = [
      [{ questions: [question('No score')] }, /^passingScore: /],
      [{ passingScore: 101, questions: [question('Too high')] }, /^passingScore: Must be 0 to 100/],
      [{ passingScore: 50, questions: [] }, /^questions: At least one question/],
      [
        {
          passingScore: 50,
          questions: [
            {
              ...question('Twice'),
              options: [
                { id: 'a', text: 'A' },
                { id: 'a', text: 'B' },
              ],
              correctOptionId: 'a',
            },
          ],
        },
        /^questions\[0\]\.options\[1\]\.id: Option id a is used twice/,
      ],
      [
        { passingScore: 50, questions: [{ ...question('Elsewhere'), correctOptionId: 'maybe' }] },
        /^questions\[0\]\.correctOptionId: Must be the id of one of the options/,
      ],
      [{ passingScore: 50, questions: [question('Free', 0)] }, /^questions\[0\]\.points: Must be 1 or more/],
      [
        {
          passingScore: 50,
          questions: [{ ...question('One option'), options: [{ id: 'yes', text: 'Yes' }] }],
        },
        /^questions\[0\]\.options: At least two options/,
      ],
      [
        { passingScore: 50, questions: [{ ...question(''), text: '  ' }] },
        /^questions\[0\]\.text: Must not be empty/,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', body);
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(String(answer.body.error), message);
    }
    const empty = await call('PATCH', {});
    assert.equal(empty.status, 422);
    assert.equal((await call('PATCH', { passingScore: -1 })).status, 422);
    assert.deepEqual(await current(), before, 'nothing changed');
  });
});
