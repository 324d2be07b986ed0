import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem, asUser } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, type BusinessFixture } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { seedStudyAudit } from '../support/study-audit.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  activeStudy,
  adminToken,
  completedReportJob,
  readNotes,
  recordStruggle,
  startSession,
  waitFor,
  waitForSessionStatus,
  type Note,
} from './fixtures.ts';
import { minutesAgo } from './lifecycle-fixtures.ts';

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}
interface Ids {
  readonly jobId: string;
  readonly sessionId: string;
  /** Agent 1's live analysis of the session (POST /api/ai while it ran). */
  readonly analysisJobId: string;
  /** The session's report once it exists; a fresh id before (the route must still be walked). */
  readonly reportId: string;
}
type Exposure =
  | { readonly exposes: false; readonly why: string }
  | {
      readonly exposes: true;
      readonly calls: (ids: Ids) => Call[];
      /**
       * The gate's own review: the tester reads undecided findings here (and Agent 1's insights of
       * the live test) in order to decide on them.
       */
      readonly testerReviews?: true;
    };

const none = (why: string): Exposure => ({ exposes: false, why });

/**
 * Every route of the app, classified. A route that could produce or expose findings or a report is
 * walked below as business, tester and admin; every other route says why it cannot. A route added
 * to the app without a line here fails the first test.
 */
const ROUTES: Readonly<Record<string, Exposure>> = {
  'GET /api/health': none('service status'),
  'GET /api/health/live': none('service status'),
  'POST /api/auth/register': none('accounts and credentials'),
  'POST /api/auth/login': none('accounts and credentials'),
  'POST /api/auth/refresh': none('accounts and credentials'),
  'POST /api/auth/logout': none('accounts and credentials'),
  'GET /api/auth/me': none("the caller's own account"),
  'POST /api/auth/magic-link': none('accounts and credentials'),
  'POST /api/auth/magic-link/verify': none('accounts and credentials'),
  'POST /api/auth/password-reset': none('accounts and credentials'),
  'POST /api/auth/password-reset/confirm': none('accounts and credentials'),
  'GET /api/auth/oauth/:provider': none('accounts and credentials'),
  'GET /api/auth/callback': none('accounts and credentials'),
  'POST /api/auth/tokens': none('API tokens'),
  'GET /api/auth/tokens': none('API tokens'),
  'DELETE /api/auth/tokens/:id': none('API tokens'),
  'POST /api/webhook-endpoints': none('webhook endpoints: URLs and event types'),
  'GET /api/webhook-endpoints': none('webhook endpoints: URLs and event types'),
  'GET /api/webhook-endpoints/:id': none('webhook endpoints: URLs and event types'),
  'PATCH /api/webhook-endpoints/:id': none('webhook endpoints: URLs and event types'),
  'DELETE /api/webhook-endpoints/:id': none('webhook endpoints: URLs and event types'),
  'GET /api/webhook-endpoints/:id/deliveries': none(
    'delivery log: event types, statuses and response codes, never the bodies',
  ),
  'POST /api/auth/messaging-link': none("a code linking the tester's chat"),
  'POST /api/jobs': none('study records: no session data'),
  'GET /api/jobs': none('study records: no session data'),
  'GET /api/jobs/:id': none('study records: no session data'),
  'GET /api/jobs/:id/results': none("per-task figures from the testers' own task reports: no finding"),
  // Counts of confirmed findings per WCAG criterion beside the prototype's audit (seeded below).
  'GET /api/jobs/:id/audit': {
    exposes: true,
    calls: ({ jobId }) => [{ method: 'GET', path: `/api/jobs/${jobId}/audit` }],
  },
  'PATCH /api/jobs/:id': none('study records: no session data'),
  'POST /api/sessions': none('creates a session and answers its ids'),
  // Carries Agent 1's insights, which name the elements of findings: the tester's until confirming.
  'GET /api/sessions/:id': {
    exposes: true,
    testerReviews: true,
    calls: ({ sessionId }) => [{ method: 'GET', path: `/api/sessions/${sessionId}` }],
  },
  'PATCH /api/sessions/:id': none(
    'a status change answering the fields of GET /api/sessions/:id, walked here',
  ),
  'POST /api/sessions/:id/complete': none('answers the new status and completedAt'),
  'POST /api/sessions/:id/analyze': none("answers the analysis' status and estimate"),
  'GET /api/sessions/:id/notes': {
    exposes: true,
    testerReviews: true,
    calls: ({ sessionId }) => [{ method: 'GET', path: `/api/sessions/${sessionId}/notes` }],
  },
  'PATCH /api/sessions/:id/notes': none('answers counts of notes written'),
  'POST /api/sessions/:id/confirm': none('answers status, confirmedAt and payoutQueued'),
  'POST /api/sessions/:id/feedback': none("answers the feedback's id and time"),
  'POST /api/sessions/:id/rating': none("answers the organization's rating; no findings"),
  'POST /api/sessions/:id/test-token': none('issues a test token'),
  // The screen recording: the tester watches it while reviewing; the business once confirmed.
  'GET /api/sessions/:id/recording': {
    exposes: true,
    testerReviews: true,
    calls: ({ sessionId }) => [{ method: 'GET', path: `/api/sessions/${sessionId}/recording` }],
  },
  'GET /api/sessions/:id/recording/:chunk': {
    exposes: true,
    testerReviews: true,
    calls: ({ sessionId }) => [{ method: 'GET', path: `/api/sessions/${sessionId}/recording/0` }],
  },
  'DELETE /api/sessions/:id/recording': none('erases the recording; answers how many chunks'),
  'POST /api/reports': {
    exposes: true,
    calls: ({ sessionId }) => [
      { method: 'POST', path: '/api/reports', body: { sessionId } },
      {
        method: 'POST',
        path: '/api/reports',
        body: { sessionId, reportFormat: 'narrative', includeScreenshots: true },
      },
    ],
  },
  'GET /api/reports/:id': {
    exposes: true,
    calls: ({ reportId }) => [
      { method: 'GET', path: `/api/reports/${reportId}` },
      { method: 'GET', path: `/api/reports/${reportId}?format=narrative&includeScreenshots=true` },
    ],
  },
  'GET /api/reports/jobs/:reportJobId': none("an Agent 3 job's status, provider and report id; no findings"),
  // Agent 4 reads tester reports only. GET first: the walk's POST queues a fresh aggregate.
  'GET /api/reports/job/:id': {
    exposes: true,
    calls: ({ jobId }) => [{ method: 'GET', path: `/api/reports/job/${jobId}` }],
  },
  'POST /api/reports/job/:id': {
    exposes: true,
    calls: ({ jobId }) => [{ method: 'POST', path: `/api/reports/job/${jobId}`, body: {} }],
  },
  'POST /api/ai': none("Agent 1 on an active session only; answers the job's id, status and estimate"),
  'GET /api/ai/:analysisJobId': {
    exposes: true,
    testerReviews: true,
    calls: ({ analysisJobId }) => [{ method: 'GET', path: `/api/ai/${analysisJobId}` }],
  },
  'GET /api/admin/testers': none('tester records'),
  'PATCH /api/admin/testers/:id': none("changes a tester's status"),
  'GET /api/admin/quiz': none('the qualification quiz'),
  'POST /api/admin/quiz': none('publishes a quiz version'),
  'PATCH /api/admin/quiz': none('changes the quiz'),
  'POST /api/gamification/evaluate': none('points and badges; no findings'),
  'GET /api/community/stats': none('counts and averages over the whole community; no findings'),
  'GET /api/testers/me': none("the tester's own profile"),
  'PATCH /api/testers/me': none("edits the tester's own profile"),
  'GET /api/testers/me/quiz': none('the quiz without its answers'),
  'POST /api/testers/me/quiz/attempts': none('scores a quiz attempt'),
  'GET /api/admin/capacity-reviews': none('counts of testers per segment'),
  'POST /api/admin/capacity-reviews/:id': none('decides a segment count'),
  'GET /api/outreach/proposals': none("matching proposals: a tester's fit to the study, no findings"),
  'POST /api/outreach/proposals/:id/approve': none('drafts an offer from the study; no findings'),
  'POST /api/outreach/proposals/:id/reject': none('skips a proposal'),
  'GET /api/outreach/queue': none('offers drafted from the study; no findings'),
  'POST /api/outreach/:id/edit': none('rewords an offer'),
  'POST /api/outreach/:id/approve': none('schedules an approved offer; no findings'),
  'POST /api/outreach/:id/reject': none('rejects an offer'),
  'POST /api/billing/checkout': none('payments'),
  'POST /api/billing/connect': none('payments'),
  'POST /api/billing/payout': none('payments'),
  'GET /api/billing/local-checkout/:id': none('payments'),
  'GET /api/billing/local-onboarding/:accountId': none('payments'),
  'POST /api/webhooks/payments': none('provider events in, {received} out'),
  'POST /api/webhooks/scheduling': none('provider events in, {received} out'),
  'POST /api/webhooks/messaging': none('chat updates in, {received} out'),
  'POST /api/cron/:job': none('triggers a schedule; answers its id and time'),
  'GET /api/internal/queues': none('queue depths: counts and times only'),
  'POST /api/audits/instant': none('audits of a URL: no session data'),
  'POST /api/audits/full': none('audits of a URL: no session data'),
  'GET /api/audits': none('audits of a URL: no session data'),
  'GET /api/audits/instant/:auditId': none('audits of a URL: no session data'),
  'GET /api/audits/:auditJobId': none('audits of a URL: no session data'),
  'POST /api/data/events': none('records signals; answers counts and rejections'),
  'POST /api/data/facial': none('records signals; answers counts and rejections'),
  'POST /api/data/voice': none('records signals; answers counts and rejections'),
  'POST /api/sessions/:id/events': none('records signals; answers counts and rejections'),
  'POST /api/sessions/:id/snapshots': none('records signals; answers counts and rejections'),
  'POST /api/sessions/:id/voice': none('records signals; answers counts and rejections'),
};

/** What identifies a finding in an answer: its id, its text, its criterion and the element it names. */
const tracesOf = (note: Note, selector: string) => [note.noteId, note.content, note.wcagCriterion!, selector];

describe('the human-in-the-loop gate', () => {
  let api: TestApi;
  let business: BusinessFixture;
  let businessToken: string;
  let admin: string;
  let jobId: string;

  before(async () => {
    api = await startTestApi();
    business = await createBusiness('pro');
    businessToken = await sessionToken(business.claims);
    admin = await adminToken();
    jobId = await activeStudy(api, businessToken, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 5 },
    });
    // The study's prototype audited (an issue under 1.1.1 only), so that GET /api/jobs/:id/audit
    // answers its comparison with the testers' findings in the walk instead of 404.
    await seedStudyAudit(jobId);
  });
  after(() => api.stop());

  it('every route of the app is classified as exposing findings or reports, or not', () => {
    const routes = api.api.routes.map((route) => `${route.method} ${route.path}`);
    const unclassified = routes.filter((route) => !(route in ROUTES));
    assert.deepEqual(unclassified, [], 'classify these routes in ROUTES');
    const gone = Object.keys(ROUTES).filter((route) => !routes.includes(route));
    assert.deepEqual(gone, [], 'these classified routes no longer exist');
  });

  it('no route shows a finding to anyone but the tester before confirmation, and none shows a rejected one after', async () => {
    // The live test, analysed by Agent 1 while it runs (its insights name the same elements as the
    // findings Agent 2 will make), then completed and analysed by Agent 2.
    const { sessionId, testerToken } = await startSession(api, businessToken, jobId);
    await recordStruggle(sessionId, minutesAgo(5));
    const live = await api.request('POST', '/api/ai', { body: { sessionId }, token: businessToken });
    assert.equal(live.status, 202, live.text);
    const { analysisJobId } = live.body.data as { analysisJobId: string };
    let liveInsights = '';
    await waitFor(async () => {
      const read = await api.request('GET', `/api/ai/${analysisJobId}`, { token: businessToken });
      liveInsights = read.text;
      return (read.body.data as { status: string }).status === 'complete';
    });
    const liveSession = await api.request('GET', `/api/sessions/${sessionId}`, { token: businessToken });
    // While the test runs, the organization reads the live insights, elements and all.
    for (const text of [liveInsights, liveSession.text]) {
      assert.ok(text.includes('#card-number') && text.includes('#pay'), text);
    }
    const done = await api.request('POST', `/api/sessions/${sessionId}/complete`, {
      body: {},
      token: businessToken,
    });
    assert.equal(done.status, 200, done.text);
    await waitForSessionStatus(api, sessionId, businessToken, 'analyzed');
    const actors = { business: businessToken, tester: testerToken, admin };
    /** Who reads the live analysis now: the status of GET /api/ai/:id per actor. */
    const insightReaders = async () => {
      const statuses: Record<string, number> = {};
      for (const [actor, token] of Object.entries(actors)) {
        statuses[actor] = (await api.request('GET', `/api/ai/${analysisJobId}`, { token })).status;
      }
      return statuses;
    };
    // Once the test has ended, only the tester reads them, until confirming.
    assert.deepEqual(await insightReaders(), { business: 404, tester: 200, admin: 404 });
    /** Every exposing route, called by every actor; the answers as sent, keyed for messages. */
    const walk = async (ids: Ids, skip: (actor: string, exposure: Exposure) => boolean) => {
      const answers: { where: string; text: string }[] = [];
      for (const [route, exposure] of Object.entries(ROUTES)) {
        if (!exposure.exposes) continue;
        for (const [actor, token] of Object.entries(actors)) {
          if (skip(actor, exposure)) continue;
          for (const call of exposure.calls(ids)) {
            const response = await api.request(call.method, call.path, { body: call.body, token });
            answers.push({ where: `${route} as ${actor} (${call.path})`, text: response.text });
          }
        }
      }
      return answers;
    };
    const assertAbsent = (answers: { where: string; text: string }[], traces: string[]) => {
      for (const { where, text } of answers) {
        for (const trace of traces) assert.ok(!text.includes(trace), `${where} shows "${trace}": ${text}`);
      }
    };

    const findings = await readNotes(api, sessionId, testerToken);
    assert.deepEqual(findings.map((note) => note.wcagCriterion).sort(), ['3.3.1', '4.1.2']);
    const rejected = findings.find((note) => note.wcagCriterion === '3.3.1')!;
    const kept = findings.find((note) => note.wcagCriterion === '4.1.2')!;
    const everyTrace = [...tracesOf(rejected, '#card-number'), ...tracesOf(kept, '#pay')];

    // Before confirmation: the findings reach nobody but the tester reviewing them.
    const before = await walk(
      { jobId, sessionId, analysisJobId, reportId: randomUUID() },
      (actor, exposure) => actor === 'tester' && exposure.exposes && exposure.testerReviews === true,
    );
    assert.ok(before.length >= 12);
    assertAbsent(before, everyTrace);
    const reportEarly = await api.request('POST', '/api/reports', {
      body: { sessionId },
      token: businessToken,
    });
    assert.equal(reportEarly.status, 409);
    assert.equal(
      reportEarly.body.error,
      'Session findings must be confirmed by the tester before a report (the session is analyzed)',
    );
    // Agent 2's job, which the organization may read, keeps counts and nothing that names a finding.
    const jobs = await asUser(testDatabase(), business.claims, (tx) =>
      tx.selectFrom('agent_jobs').selectAll().where('session_id', '=', sessionId).execute(),
    );
    assert.deepEqual(
      jobs.map((job) => [job.kind, job.result]),
      [['agent2', { findingCount: 2, patternCount: 0 }]],
    );
    assertAbsent([{ where: 'agent_jobs as business', text: JSON.stringify(jobs) }], everyTrace);

    // Notes written by humans before confirmation never pass the gate into the report.
    const businessNote = 'Business view: the checkout is fine as it is';
    const testerNote = 'My own note: I liked the colours';
    for (const [content, token] of [
      [businessNote, businessToken],
      [testerNote, testerToken],
    ] as const) {
      const added = await api.request('PATCH', `/api/sessions/${sessionId}/notes`, {
        body: { notes: [{ content }] },
        token,
      });
      assert.equal(added.status, 200, added.text);
    }
    const humanNotes = (await readNotes(api, sessionId, testerToken)).filter((n) => n.authorKind === 'human');
    assert.equal(humanNotes.length, 2);
    const decideHuman = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 5, notes: [{ noteId: humanNotes[0]!.noteId, decision: 'confirmed' }] },
      token: testerToken,
    });
    assert.equal(decideHuman.status, 422);
    assert.equal(decideHuman.body.error, 'notes[0].noteId: Only agent findings are confirmed or rejected');

    const confirm = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 5, notes: [{ noteId: rejected.noteId, decision: 'rejected' }] },
      token: testerToken,
    });
    assert.equal(confirm.status, 200, confirm.text);
    const { reportId } = await completedReportJob(api, sessionId, testerToken);
    assert.ok(reportId);
    // Agent 4's study report too, built from the tester reports.
    const aggregate = await api.request('POST', `/api/reports/job/${jobId}`, {
      body: {},
      token: businessToken,
    });
    assert.equal(aggregate.status, 202, aggregate.text);
    await waitFor(async () => {
      const read = await api.request('GET', `/api/reports/job/${jobId}`, { token: businessToken });
      return (read.body.data as { status: string } | null)?.status === 'complete';
    });

    // After confirmation: the rejected finding is in no answer, whoever asks.
    const after = await walk({ jobId, sessionId, analysisJobId, reportId }, () => false);
    assert.deepEqual(await insightReaders(), { business: 404, tester: 404, admin: 404 });
    const studyReport = after.find(({ where }) => where.startsWith('GET /api/reports/job/:id as business'))!;
    assert.match(studyReport.text, /"status":"complete"/);
    assert.ok(studyReport.text.includes('4.1.2'), "the study report carries the kept finding's criterion");
    assertAbsent(after, tracesOf(rejected, '#card-number'));
    const reports = after.filter(({ where }) => where.startsWith('GET /api/reports/:id'));
    assert.equal(reports.length, 6);
    for (const { where, text } of reports) {
      const { report } = (JSON.parse(text) as { data: { report: { findings: { findingId: string }[] } } })
        .data;
      assert.deepEqual(
        report.findings.map((f) => f.findingId),
        [kept.noteId],
        where,
      );
      assert.ok(text.includes('#pay'), `${where} names the kept finding's element`);
      assertAbsent([{ where, text }], [businessNote, testerNote]);
    }
    const stored = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('session_notes')
        .select(['content', 'confirmed'])
        .where('session_id', '=', sessionId)
        .where('author_kind', '=', 'human')
        .orderBy('content')
        .execute(),
    );
    assert.deepEqual(stored, [
      { content: businessNote, confirmed: false },
      { content: testerNote, confirmed: false },
    ]);
    const orgNotes = await readNotes(api, sessionId, businessToken);
    assert.deepEqual(
      orgNotes.map((note) => note.noteId).sort(),
      [kept.noteId, ...humanNotes.map((n) => n.noteId)].sort(),
    );
  });
});
