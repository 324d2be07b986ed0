import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  adminToken,
  analyzedSession,
  businessWithStudy,
  readNotes,
  startSession,
  type Note,
  type TesterSession,
} from '../sessions/fixtures.ts';
import { countOf, PageClient, textOfId } from './page-client.ts';

const storedSession = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('sessions')
      .select(['status', 'rating', 'rating_comment'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  );
const storedNotes = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('session_notes')
      .select(['id', 'decision', 'confirmed', 'annotation'])
      .where('session_id', '=', id)
      .where('author_kind', '=', 'agent')
      .execute(),
  );

describe("the tester's review page (/sessions/:id/review)", function () {
  this.timeout(120_000);
  let api: TestApi;
  let business: string;
  let session: TesterSession;
  let findings: Note[];
  let path: string;
  let jobId: string;
  const as = (jwt: string) => {
    const client = new PageClient(api.url);
    client.useSession(jwt);
    return client;
  };

  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    ({ business, jobId } = await businessWithStudy(api));
    session = await analyzedSession(api, business, jobId);
    findings = (await readNotes(api, session.sessionId, session.testerToken)).filter(
      (n) => n.authorKind === 'agent',
    );
    assert.ok(findings.length >= 2, 'the recorded struggle gives Agent 2 findings to review');
    path = `/sessions/${session.sessionId}/review`;
  });
  after(() => api.stop());

  it('shows every AI finding with its severity, WCAG criterion and level, moment and summary', async () => {
    const page = await as(session.testerToken).get(path);
    assert.equal(page.status, 200);
    assert.equal(countOf(page.html, /<section class="finding"/), findings.length);
    for (const finding of findings) {
      assert.ok(page.html.includes(`name="decision-${finding.noteId}"`), 'a decision per finding');
      assert.ok(page.html.includes(`name="annotation-${finding.noteId}"`), 'an annotation per finding');
    }
    const first = findings.find((n) => n.wcagCriterion)!;
    assert.ok(page.html.includes(first.content.replace(/&/g, '&amp;').replace(/</g, '&lt;').slice(0, 40)));
    assert.match(
      page.html,
      new RegExp(`${first.wcagCriterion!.replace(/\./g, '\\.')} [A-Z][^<]*, level A{1,3}`),
    );
    assert.match(page.html, /(Critical|High|Medium|Low)<\/dd>/);
    assert.match(page.html, /\d+:\d\d into the session/);
    assert.equal(countOf(page.html, /<h1[ >]/), 1);
  });

  it("is a 404 page for everyone but the session's tester: its business, an admin, another tester", async () => {
    const other = await sessionToken(await createTester());
    for (const jwt of [business, await adminToken(), other]) {
      const page = await as(jwt).get(path);
      assert.equal(page.status, 404);
      assert.match(page.html, /<h1>Page not found<\/h1>/);
      assert.doesNotMatch(page.html, new RegExp(findings[0]!.noteId));
    }
    assert.equal((await as(session.testerToken).get(`/sessions/${randomUUID()}/review`)).status, 404);
    assert.equal((await as(session.testerToken).get('/sessions/not-a-uuid/review')).status, 404);
  });

  it('sends a signed-out visitor to sign in and back to the review', async () => {
    const page = await new PageClient(api.url).get(path);
    assert.equal(page.status, 303);
    assert.equal(page.location, `/login?next=${encodeURIComponent(path)}`);
  });

  it('a session not analysed yet says so and has no form; posting to it answers 409', async () => {
    const fresh = await businessWithStudy(api);
    const running = await startSession(api, fresh.business, fresh.jobId);
    const client = as(running.testerToken);
    const page = await client.get(`/sessions/${running.sessionId}/review`);
    assert.equal(page.status, 200);
    assert.match(page.html, /still running/);
    assert.doesNotMatch(page.html, /<form method="post" action="\/sessions/);
    const posted = await client.post(`/sessions/${running.sessionId}/review`, { rating: '5' });
    assert.equal(posted.status, 409);
    assert.match(posted.html, /cannot be confirmed yet: the session is active/);
  });

  it('a form error re-renders the review with every value kept and the message at its field; nothing is confirmed', async () => {
    const client = as(session.testerToken);
    await client.get(path);
    const [first] = findings;
    const page = await client.post(path, {
      [`decision-${first!.noteId}`]: 'rejected',
      [`annotation-${first!.noteId}`]: 'The pay button worked for me',
      comment: 'Long but fine',
    });
    assert.equal(page.status, 422);
    assert.equal(textOfId(page.html, 'field-rating-error'), 'Error: Required');
    assert.match(page.html, new RegExp(`id="field-decision-${first!.noteId}-rejected"[^>]*checked`));
    assert.match(page.html, /The pay button worked for me<\/textarea>/);
    assert.match(page.html, /Long but fine<\/textarea>/);
    const tooLong = await client.post(path, { rating: '4', comment: 'x'.repeat(5001) });
    assert.equal(tooLong.status, 422);
    assert.equal(textOfId(tooLong.html, 'field-comment-error'), 'Error: Must be at most 5000 characters');
    const rating = await client.post(path, { rating: '9' });
    assert.equal(textOfId(rating.html, 'field-rating-error'), 'Error: Must be 1 to 5');
    assert.equal((await storedSession(session.sessionId)).status, 'analyzed');
  });

  it('one submit confirms the session through the gate with the decisions, rating and comment; then it shows what was sent and takes no second submit', async () => {
    const client = as(session.testerToken);
    await client.get(path);
    const [rejected, annotated] = findings;
    const sent = await client.post(path, {
      [`decision-${rejected!.noteId}`]: 'rejected',
      [`annotation-${rejected!.noteId}`]: 'Not a problem: I clicked on purpose',
      [`decision-${annotated!.noteId}`]: 'confirmed',
      [`annotation-${annotated!.noteId}`]: 'Yes, the error was unclear',
      rating: '4',
      comment: 'Clear tasks',
    });
    assert.equal(sent.status, 303, sent.html);
    assert.equal(sent.location, `${path}?sent=1`);

    const stored = await storedSession(session.sessionId);
    assert.deepEqual(stored, { status: 'confirmed', rating: 4, rating_comment: 'Clear tasks' });
    const notes = new Map((await storedNotes(session.sessionId)).map((n) => [n.id, n]));
    assert.equal(notes.get(rejected!.noteId)!.decision, 'rejected');
    assert.equal(notes.get(rejected!.noteId)!.confirmed, false);
    assert.equal(notes.get(annotated!.noteId)!.annotation, 'Yes, the error was unclear');
    assert.ok(
      [...notes.values()].every((n) => n.id === rejected!.noteId || n.confirmed),
      'the rest are confirmed',
    );
    const payments = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('payments').select('id').where('session_id', '=', session.sessionId).execute(),
    );
    assert.equal(payments.length, 1, 'the payout is queued by the confirmation');

    const after = await client.get(`${path}?sent=1`);
    assert.match(after.html, /your review was sent and the session is confirmed/);
    assert.match(after.html, /4 of 5/);
    assert.match(after.html, /Clear tasks/);
    assert.match(after.html, /: rejected<\/h2>/);
    assert.match(after.html, /Your note: Not a problem: I clicked on purpose/);
    assert.doesNotMatch(after.html, /<form method="post" action="\/sessions/);

    const again = await client.post(path, { rating: '1', comment: 'changed my mind' });
    assert.equal(again.status, 409);
    assert.match(again.html, /already sent your review; nothing was changed/);
    assert.deepEqual(await storedSession(session.sessionId), stored);
  });

  it('its business rates the confirmed session once on the study page (a rating is required)', async () => {
    const study = `/dashboard/jobs/${jobId}`;
    const client = as(business);
    const page = await client.get(study);
    const action = `${study}/sessions/${session.sessionId}/rating`;
    assert.ok(page.html.includes(`action="${action}"`), 'a rating form for the confirmed session');
    const field = `rating-${session.sessionId}`;
    const missing = await client.post(action, { [`comment-${session.sessionId}`]: 'Thorough' });
    assert.equal(missing.status, 422);
    assert.equal(textOfId(missing.html, `field-${field}-error`), 'Error: Required');
    assert.match(missing.html, /Thorough<\/textarea>/);
    const rated = await client.post(action, { [field]: '5', [`comment-${session.sessionId}`]: 'Thorough' });
    assert.equal(rated.status, 303);
    assert.equal(rated.location, `${study}?done=session-rated`);
    const stored = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('sessions')
        .select(['business_rating', 'business_rating_comment'])
        .where('id', '=', session.sessionId)
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual(stored, { business_rating: 5, business_rating_comment: 'Thorough' });
    const after = await client.get(rated.location);
    assert.match(after.html, /5 of 5/);
    assert.ok(!after.html.includes(`action="${action}"`), 'rated once: no second form');
    const again = await client.post(action, { [field]: '1' });
    assert.equal(again.status, 409);
    assert.match(again.html, /already rated/);
    const admin = as(await adminToken());
    await admin.get(study);
    assert.equal(
      (await admin.post(action, { [field]: '1' })).status,
      404,
      "the rating is the business's own",
    );
  });
});
