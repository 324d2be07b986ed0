import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { defaultPayloadConverter } from '@temporalio/common';
import { asSystem } from '../../db/doors.ts';
import { FOUND_BY } from '../../lib/analysis/audit-comparison.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import { insertStudyAuditJob } from '../../db/repositories/study-audits.ts';
import { confirmedSession } from '../ai/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { createTestServiceWorker, temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { PageClient } from '../pages/page-client.ts';
import { activeStudy } from '../sessions/fixtures.ts';
import { acquireAuditHarness, AUDIT_TEST_QUEUE, releaseAuditHarness, type AuditHarness } from './harness.ts';
import { eventually } from './polling.ts';

interface StudyAudit {
  jobId: string;
  auditJobId: string;
  url: string;
  status: string;
  score: number | null;
  grade: string | null;
  pagesAudited: number;
  completedAt: string | null;
  comparison:
    | {
        criterion: string;
        name: string;
        level: string;
        foundBy: string;
        testerFindings: number;
        testerSessions: number;
        auditIssues: number;
        auditPages: number;
      }[]
    | null;
}

/** What the study workflow's `auditPrototype` activity answered, read from the workflow's history. */
async function prototypeAuditOutcome(studyId: string): Promise<unknown> {
  const { client } = await temporalEnvironment();
  const handle = client.workflow.getHandle(studyWorkflowId(studyId));
  let outcome: unknown;
  const found = await eventually(async () => {
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.find(
      (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'auditPrototype',
    );
    const completed =
      scheduled &&
      events.find(
        (event) =>
          String(event.activityTaskCompletedEventAttributes?.scheduledEventId) === String(scheduled.eventId),
      );
    const payload = completed?.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
    if (payload) outcome = defaultPayloadConverter.fromPayload(payload);
    return payload !== undefined;
  });
  assert.ok(found, "the study's workflow ran its prototype's audit activity");
  return outcome;
}

describe("a study's prototype audited when the study becomes active, beside its testers' findings", function () {
  this.timeout(120_000);
  let harness: AuditHarness;
  let worker: Worker;
  let running: Promise<void>;
  let api: TestApi;
  let owner: string;

  /** An active study of a new pro business whose prototype is `prototype`. */
  const studyOf = async (prototype: { prototypeUrl: string; prototypeType: string }, token = owner) =>
    activeStudy(api, token, { ...validStudyBody(), ...prototype });

  const readAudit = (jobId: string, token = owner) =>
    api.request('GET', `/api/jobs/${jobId}/audit`, { token });

  before(async () => {
    harness = await acquireAuditHarness();
    // Studies of this suite run on a worker of their own, whose prototype audits may reach the
    // fixture server (the suite's shared worker audits no prototype).
    const taskQueue = `study-audits-${randomUUID()}`;
    worker = await createTestServiceWorker(taskQueue, {
      prototypeAudits: {
        taskQueue: AUDIT_TEST_QUEUE,
        urlPolicy: { allowPrivate: false, allowedHosts: [harness.fixtures.hostPort] },
      },
    });
    running = worker.run();
    api = await startTestApi({ env: { TEMPORAL_TASK_QUEUE: taskQueue, TRUST_PROXY: '1' }, worker: false });
    owner = await sessionToken((await createBusiness('pro')).claims);
  });
  after(async () => {
    await api?.stop();
    worker?.shutdown();
    await running;
    await releaseAuditHarness();
  });

  it('audits a public URL prototype once, and compares per criterion: both, people only, the audit only', async () => {
    const prototypeUrl = `${harness.fixtures.url}/study-prototype.html`;
    const jobId = await studyOf({ prototypeUrl, prototypeType: 'url' });
    const outcome = (await prototypeAuditOutcome(jobId)) as { auditJobId: string };
    assert.ok(outcome.auditJobId, JSON.stringify(outcome));

    let audit: StudyAudit | undefined;
    assert.ok(
      await eventually(async () => {
        const read = await readAudit(jobId);
        assert.equal(read.status, 200, read.text);
        audit = read.body.data as StudyAudit;
        return audit.status === 'complete';
      }, 90_000),
      `the audit completed: ${JSON.stringify(audit)}`,
    );
    assert.equal(audit!.auditJobId, outcome.auditJobId);
    assert.equal(audit!.url, prototypeUrl);

    // The audit as the full audit's own endpoint answers it: one page, with its issues' criteria.
    const full = await api.request('GET', `/api/audits/${audit!.auditJobId}`, { token: owner });
    assert.equal(full.status, 200, full.text);
    const result = (
      full.body.data as { result: { score: number; grade: string; issues: { wcagCriteria: string[] }[] } }
    ).result;
    assert.equal(audit!.score, result.score);
    assert.equal(audit!.grade, result.grade);
    assert.equal(audit!.pagesAudited, 1);
    const auditCriteria = new Set(result.issues.flatMap((issue) => issue.wcagCriteria));
    assert.ok(auditCriteria.has('1.1.1'), 'the image without a text alternative');
    assert.ok(auditCriteria.has('1.4.3'), 'the pale hint');
    assert.ok(!auditCriteria.has('2.1.1'), 'nothing of the keyboard on this page');

    // Testers met the contrast (two sessions) and the keyboard (one); a rejected or undecided
    // finding, a pattern and a note without a criterion count for nothing.
    const findings = (criterion: string | null, more: Record<string, unknown> = {}) => ({
      criterion,
      ...more,
    });
    const sessions = [
      [
        findings('1.4.3'),
        findings('2.1.1'),
        findings('2.4.7', { confirmed: false, decision: 'rejected', decided_at: new Date() }),
        // Not decided yet, and the session's findings not confirmed: behind the gate.
        findings('2.4.1', { confirmed: false }),
      ],
      [findings('1.4.3'), findings('1.4.3'), findings('3.3.2', { pattern: true }), findings(null)],
    ];
    for (const notes of sessions) {
      const sessionId = await confirmedSession(jobId, await createTester(), { report: false });
      await asSystem(testDatabase(), (tx) =>
        tx
          .insertInto('session_notes')
          .values(
            notes.map(({ criterion, ...more }) => ({
              session_id: sessionId,
              content: `A barrier under ${criterion}`,
              noted_at: new Date(),
              author_kind: 'agent' as const,
              wcag_criterion: criterion,
              wcag_level: 'AA' as const,
              severity: 'high' as const,
              confirmed: true,
              ...more,
            })),
          )
          .execute(),
      );
    }
    const read = await readAudit(jobId);
    assert.equal(read.status, 200, read.text);
    const rows = (read.body.data as StudyAudit).comparison!;
    const row = (criterion: string) => rows.find((r) => r.criterion === criterion);
    const { auditIssues, ...contrast } = row('1.4.3')!;
    assert.deepEqual(contrast, {
      criterion: '1.4.3',
      name: 'Contrast (Minimum)',
      level: 'AA',
      foundBy: 'both',
      testerFindings: 3,
      testerSessions: 2,
      auditPages: 1,
    });
    assert.ok(auditIssues >= 1);
    assert.deepEqual(
      {
        foundBy: row('2.1.1')?.foundBy,
        findings: row('2.1.1')?.testerFindings,
        issues: row('2.1.1')?.auditIssues,
      },
      { foundBy: 'testers', findings: 1, issues: 0 },
    );
    assert.equal(row('1.1.1')?.foundBy, 'audit');
    assert.equal(row('1.1.1')?.testerFindings, 0);
    assert.equal(row('2.4.7'), undefined, 'a rejected finding is no barrier met');
    assert.equal(row('2.4.1'), undefined, 'a finding behind the gate is not shown');
    assert.equal(row('3.3.2')?.testerFindings ?? 0, 0, 'a pattern is not counted again');
    // Every criterion of either side is listed once, both first, then people only, then the audit.
    assert.deepEqual(
      rows.map((r) => r.criterion).sort(),
      [...new Set([...auditCriteria, '1.4.3', '2.1.1'])].sort(),
    );
    const groups = rows.map((r) => FOUND_BY.indexOf(r.foundBy as (typeof FOUND_BY)[number]));
    assert.deepEqual(
      groups,
      [...groups].sort((a, b) => a - b),
    );

    // The study page and the study report's page show it (the report page once it is written).
    const page = new PageClient(api.url);
    page.useSession(owner);
    const html = (await page.get(`/dashboard/jobs/${jobId}`)).html;
    assert.match(html, /<h2 id="prototype-audit-title">Accessibility audit of the prototype<\/h2>/);
    assert.match(html, /<caption>Barriers by WCAG criterion: who met them<\/caption>/);
    assert.match(
      html,
      /<th scope="row">1\.4\.3 Contrast \(Minimum\) \(level AA\)<\/th><td>Testers and the audit<\/td><td>3 findings in 2 sessions<\/td><td>\d+ issues? on 1 page<\/td>/,
    );
    assert.match(
      html,
      /<th scope="row">2\.1\.1 Keyboard \(level A\)<\/th><td>Testers only<\/td><td>1 finding in 1 session<\/td><td>none<\/td>/,
    );

    // Audited once: a retried activity stores no second audit of the study, it finds the first.
    const again = await asSystem(testDatabase(), async (tx) => {
      const first = await tx
        .selectFrom('audit_jobs')
        .selectAll()
        .where('study_id', '=', jobId)
        .executeTakeFirstOrThrow();
      const { id: _id, ...copy } = first;
      return insertStudyAuditJob(tx, { ...copy, study_id: jobId, result: null });
    });
    assert.equal(again.id, audit!.auditJobId);
    assert.equal(again.status, 'complete');
  });

  it("another organization's business, a tester and an anonymous caller read nothing of it", async () => {
    const jobId = await studyOf({ prototypeUrl: `${harness.fixtures.url}/clean.html`, prototypeType: 'url' });
    await prototypeAuditOutcome(jobId);
    const stranger = await sessionToken((await createBusiness('pro')).claims);
    const other = await readAudit(jobId, stranger);
    assert.equal(other.status, 404, other.text);
    assert.equal(other.body.error, 'Study not found');
    const tester = await readAudit(jobId, await sessionToken(await createTester()));
    assert.equal(tester.status, 403, tester.text);
    const anonymous = await api.request('GET', `/api/jobs/${jobId}/audit`);
    assert.equal(anonymous.status, 401, anonymous.text);
    assert.equal((await readAudit(jobId)).status, 200);
  });

  it('a design tool prototype and an address that is not public are not audited: 404 saying why', async () => {
    const cases = [
      {
        prototype: { prototypeUrl: 'https://www.figma.com/proto/abc', prototypeType: 'design_tool_1' },
        skipped: 'not-a-url',
      },
      // Loopback on a port the policy does not allow: private, like an intranet address.
      { prototype: { prototypeUrl: 'http://127.0.0.1:9/', prototypeType: 'url' }, skipped: 'not-public' },
    ];
    for (const { prototype, skipped } of cases) {
      const jobId = await studyOf(prototype);
      assert.deepEqual(await prototypeAuditOutcome(jobId), { skipped });
      const read = await readAudit(jobId);
      assert.equal(read.status, 404, read.text);
      assert.match(
        read.body.error ?? '',
        /^Audit not found: the study's prototype is audited when the study becomes active, if it is a public URL$/,
      );
      const page = new PageClient(api.url);
      page.useSession(owner);
      const html = (await page.get(`/dashboard/jobs/${jobId}`)).html;
      assert.match(
        html,
        skipped === 'not-a-url'
          ? /A prototype in a design tool is not audited/
          : /The prototype was not audited when the study became active: its address was not a public one/,
      );
    }
  });
});
