import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asSystem } from '../../db/doors.ts';
import { SEED_PASSWORD } from '../../db/seed/seed-data.ts';
import { runDemo, type DemoSettings } from '../../scripts/lib/demo/run-demo.ts';
import { createPasswordUser, type PasswordUser } from '../auth/helpers.ts';
import { startPaymentsHarness, type PaymentsHarness } from '../payments/harness.ts';
import { PageClient } from '../pages/page-client.ts';
import { SHORT_QUIZ } from '../pages/short-quiz.ts';
import { testDatabase } from '../support/database.ts';

/** What the demo printed, with a way to wait for a line as a person reading along would. */
class Printed {
  readonly lines: string[] = [];
  readonly print = (line: string) => void this.lines.push(line);

  async match(pattern: RegExp): Promise<RegExpExecArray> {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      for (const line of this.lines) {
        const found = pattern.exec(line);
        if (found) return found;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the demo never printed ${pattern}`);
  }
}

const sessionRow = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('sessions')
      .select(['status', 'notes_confirmed'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  );
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

// The demo against a real API and worker of their own origin (the links they mail lead back to
// them), the local payment provider, and an email outbox in a folder. Ghana (GH) and Jamaica (JM):
// no other test recruits there.
describe("npm run demo: one study's whole life through the public HTTP API", function () {
  this.timeout(240_000);
  let h: PaymentsHarness;
  let outboxDir: string;
  let admin: PasswordUser;
  const settings = (country: string, printed: Printed, byHand = false): DemoSettings => ({
    baseUrl: h.url,
    outboxDir,
    temporalUi: { url: 'http://127.0.0.1:8233', namespace: 'default' },
    admin,
    country,
    byHand,
    print: printed.print,
    pollMs: 200,
    stepTimeoutMs: 90_000,
  });

  before(async () => {
    outboxDir = await mkdtemp(join(tmpdir(), 'demo-outbox-'));
    h = await startPaymentsHarness({
      local: true,
      ownOrigin: true,
      env: { SMTP_URL: undefined, OUTBOX_DIR: outboxDir },
    });
    admin = await createPasswordUser('admin');
    const login = await h.request('POST', '/api/auth/login', { body: admin });
    const token = (login.body.data as { sessionToken: string }).sessionToken;
    const quiz = await h.request('POST', '/api/admin/quiz', { token, body: SHORT_QUIZ });
    assert.equal(quiz.status, 201, quiz.text);
  });
  after(async () => {
    await h?.stop();
    await rm(outboxDir, { recursive: true, force: true });
  });

  it('runs every step, printing the pages and workflows to look at, and ends with a completed study', async () => {
    const printed = new Printed();
    const summary = await runDemo(settings('GH', printed));
    assert.equal(summary.studyStatus, 'completed');
    assert.equal(summary.studyReport, 'complete');
    assert.ok(summary.findings > 0, 'Agent 2 found the barriers in the synthetic signals');
    assert.equal(summary.payout, '25.00 EUR');
    assert.ok(summary.points > 0, 'the tester earned points');
    const session = await sessionRow(summary.sessionId);
    assert.equal(session.status, 'confirmed');
    assert.equal(session.notes_confirmed, true);

    const output = printed.lines.join('\n');
    for (const link of [
      `${h.url}/dashboard/jobs/${summary.jobId}`,
      `${h.url}/sessions/${summary.sessionId}/review`,
      `${h.url}/billing/local-checkout/cs_local_`,
      `http://127.0.0.1:8233/namespaces/default/workflows/study%3A${summary.jobId}`,
      `http://127.0.0.1:8233/namespaces/default/workflows/session%3A${summary.sessionId}`,
    ]) {
      assert.ok(output.includes(link), `the demo prints ${link}`);
    }
    assert.match(output, /^11\. The report, the payout, the points and the study report follow$/m);
  });

  it('--by-hand: each human step is done by a person on the pages, and the demo follows', async () => {
    const printed = new Printed();
    const demo = runDemo(settings('JM', printed, true));
    const signIn = async (email: string) => {
      const browser = new PageClient(h.url);
      await browser.get('/login');
      assert.equal((await browser.post('/login', { email, password: SEED_PASSWORD })).status, 303);
      return browser;
    };

    const person = (async () => {
      // The business pays on the study page, through the local provider's checkout page.
      const business = await signIn((await printed.match(/(demo-business-\w+@demo\.example)/))[1]!);
      const study = new URL((await printed.match(/Study page: +(\S+)/))[1]!).pathname;
      await printed.match(/By hand: sign in as .* "Pay by checkout"/);
      await business.get(study);
      const checkout = await business.post(`${study}/checkout`, {});
      const provider = new URL(checkout.location!).pathname;
      await business.get(provider);
      assert.equal((await business.post(provider, {})).status, 303);

      // It approves the proposal of the tester the demo names, then the drafted message.
      const tester = (await printed.match(/By hand: approve the proposal of tester (\w{8})/))[1]!;
      let page = await business.get(study);
      for (let attempt = 0; !page.html.includes(`tester ${tester}`) && attempt < 300; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        page = await business.get(study);
      }
      const after = page.html.slice(page.html.indexOf(`tester ${tester}`));
      const approve = new RegExp(`action="(${study}/proposals/[0-9a-f-]{36}/approve)"`).exec(after)![1]!;
      assert.equal((await business.post(approve, {})).status, 303);
      await printed.match(/By hand: press "Approve and send"/);
      page = await business.get(study);
      const send = new RegExp(`action="(${study}/outreach/[0-9a-f-]{36}/approve)"`).exec(page.html)![1]!;
      assert.equal((await business.post(send, {})).status, 303);

      // The tester opens the emailed accept link and presses its button.
      const accept = pathOf((await printed.match(/Accept link \(from the email\): (\S+)/))[1]!);
      await printed.match(/By hand: open the accept link/);
      const offers = new PageClient(h.url);
      assert.equal((await offers.get(accept)).status, 200);
      assert.equal((await offers.post(accept, {})).status, 200);

      // The tester reviews the findings and sends them.
      const email = (await printed.match(/By hand: sign in as (demo-tester-\w+@demo\.example)/))[1]!;
      const review = pathOf((await printed.match(/Review page: +(\S+)/))[1]!);
      const reviewer = await signIn(email);
      const form = await reviewer.get(review);
      const fields: Record<string, string> = { rating: '5' };
      const notes = new Set([...form.html.matchAll(/name="decision-([0-9a-f-]{36})"/g)].map((m) => m[1]!));
      assert.ok(notes.size > 0, 'the review page lists the findings');
      for (const note of notes) {
        fields[`decision-${note}`] = 'rejected';
        fields[`annotation-${note}`] = 'Not a barrier for me';
      }
      assert.equal((await reviewer.post(review, fields)).status, 303);
    })();

    const [summary] = await Promise.all([demo, person]);
    assert.equal(summary.studyStatus, 'completed');
    assert.equal((await sessionRow(summary.sessionId)).status, 'confirmed');
  });
});
