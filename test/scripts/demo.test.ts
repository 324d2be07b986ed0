import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { asSystem } from '../../db/doors.ts';
import { actAsPeople } from '../../scripts/lib/demo/page-person.ts';
import { PrintedLines } from '../../scripts/lib/demo/printed-lines.ts';
import { runDemo, type DemoSettings } from '../../scripts/lib/demo/run-demo.ts';
import { takeScreenshots } from '../../scripts/lib/demo/screenshots.ts';
import { PROJECT_ROOT } from '../../scripts/lib/tools.ts';
import { testConfig } from '../support/config.ts';
import { createPasswordUser, type PasswordUser } from '../auth/helpers.ts';
import { startPaymentsHarness, type PaymentsHarness } from '../payments/harness.ts';
import { SHORT_QUIZ } from '../pages/short-quiz.ts';
import { testDatabase } from '../support/database.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { verifyWebhook } from '../webhooks/verify-example.ts';

const sessionRow = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('sessions')
      .select(['status', 'notes_confirmed'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  );

// The demo against a real API and worker of their own origin (the links they mail lead back to
// them), the local payment provider, and an email outbox in a folder. Ghana (GH) and Jamaica (JM):
// no other test recruits there; nor in Nepal (NP), where the screenshots' study recruits.
describe("npm run demo: one study's whole life through the public HTTP API", function () {
  this.timeout(240_000);
  let h: PaymentsHarness;
  let outboxDir: string;
  let admin: PasswordUser;
  let receiver: Receiver;
  const settings = (country: string, printed: PrintedLines, byHand = false): DemoSettings => ({
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
    receiver = await startReceiver();
    h = await startPaymentsHarness({
      local: true,
      ownOrigin: true,
      // The business's webhook receiver is on loopback: the one private address the service may post to.
      env: { SMTP_URL: undefined, OUTBOX_DIR: outboxDir, AUDIT_ALLOWED_HOSTS: new URL(receiver.url).host },
    });
    admin = await createPasswordUser('admin');
    const login = await h.request('POST', '/api/auth/login', { body: admin });
    const token = (login.body.data as { sessionToken: string }).sessionToken;
    const quiz = await h.request('POST', '/api/admin/quiz', { token, body: SHORT_QUIZ });
    assert.equal(quiz.status, 201, quiz.text);
  });
  after(async () => {
    await h?.stop();
    await receiver?.stop();
    await rm(outboxDir, { recursive: true, force: true });
  });

  it('runs every step, printing the pages and workflows to look at, and ends with a completed study', async () => {
    const printed = new PrintedLines();
    const summary = await runDemo({ ...settings('GH', printed), webhookUrl: receiver.url });
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
      `${h.url}/offers`,
      `${h.url}/reports/`,
      `${h.url}/dashboard/jobs/${summary.jobId}/report`,
      `${h.url}/billing/local-checkout/cs_local_`,
      `http://127.0.0.1:8233/namespaces/default/workflows/study%3A${summary.jobId}`,
      `http://127.0.0.1:8233/namespaces/default/workflows/session%3A${summary.sessionId}`,
    ]) {
      assert.ok(output.includes(link), `the demo prints ${link}`);
    }
    assert.match(output, /^12\. The report, the payout, the points and the study report follow$/m);

    // The business's webhook endpoint heard the study's whole life, each event once and signed.
    assert.match(output, /^ 3\. The business registers a webhook endpoint$/m);
    assert.ok(summary.webhook);
    const heard = receiver.received.map((request) => request.body);
    assert.deepEqual(
      new Set(heard.map((event) => event.type)),
      new Set([
        'study.activated',
        'session.completed',
        'session.confirmed',
        'report.ready',
        'payout.paid',
        'study.completed',
        'study_report.ready',
      ]),
    );
    // One tester: each fact happened once, so each event type arrived exactly once.
    assert.equal(heard.length, 7, heard.map((event) => event.type).join(', '));
    for (const request of receiver.received) {
      assert.ok(
        verifyWebhook(request.rawBody, String(request.headers['webhook-signature']), summary.webhook.secret),
      );
      assert.equal(request.headers['webhook-id'], request.body.id);
    }
    const byType = new Map(heard.map((event) => [event.type, event.data.object]));
    assert.deepEqual(byType.get('study.completed'), { studyId: summary.jobId, status: 'completed' });
    assert.deepEqual(byType.get('session.confirmed'), {
      sessionId: summary.sessionId,
      studyId: summary.jobId,
      status: 'confirmed',
    });
    assert.equal(byType.get('report.ready')?.reportId, summary.reportId);
    // The tester did the first task and gave up on the second: the business's per-task results.
    assert.deepEqual(
      summary.taskResults.map((line) => line.replace(/, [0-9.]+ s on task/, '')),
      [
        'Task 1 "Fill the basket": 1 of 1 completed (100 %, 95 % interval 17 % to 100 %), ease 6.0 of 7',
        'Task 2 "Pay": 0 of 1 completed (0 %, 95 % interval 0 % to 83 %), 1 gave up, ease 2.0 of 7',
      ],
    );
    for (const line of summary.taskResults) assert.ok(output.includes(line), `the demo prints ${line}`);
  });

  it('--by-hand: each human step is done by a person on the pages, and the demo follows', async () => {
    const printed = new PrintedLines();
    const demo = runDemo(settings('JM', printed, true));
    const people = actAsPeople(h.url, printed);

    const [summary] = await Promise.all([demo, people]);
    assert.equal(summary.studyStatus, 'completed');
    assert.equal((await sessionRow(summary.sessionId)).status, 'confirmed');
  });

  it('npm run screenshots: the outreach queue and the review page as PNGs made in Chromium, shown in docs/', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'demo-screenshots-'));
    try {
      const { byHand: _byHand, print: _print, ...demo } = settings('NP', new PrintedLines());
      const files = await takeScreenshots({ demo, chromiumPath: testConfig().audits.chromiumPath, outDir });
      assert.deepEqual(files.map((file) => basename(file)).sort(), ['outreach-queue.png', 'review-page.png']);
      for (const file of files) {
        const png = await readFile(file);
        assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')], `${file} is a PNG`);
        assert.equal(png.readUInt32BE(16), 1100, 'as wide as the window');
        assert.ok(png.readUInt32BE(20) >= 900, 'the whole page');
      }
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
    const docs = await readFile(join(PROJECT_ROOT, 'docs', 'pages.md'), 'utf8');
    for (const name of ['outreach-queue.png', 'review-page.png']) {
      assert.ok(docs.includes(`(screenshots/${name})`), `docs/pages.md shows ${name}`);
      assert.equal(
        (await readFile(join(PROJECT_ROOT, 'docs', 'screenshots', name))).subarray(1, 4).toString(),
        'PNG',
      );
    }
  });
});
