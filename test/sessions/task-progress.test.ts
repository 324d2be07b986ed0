import assert from 'node:assert/strict';
import { setTimeout } from 'node:timers/promises';
import { sql } from 'kysely';
import { asSystem, asUser } from '../../db/doors.ts';
import { insertEvents, type EventRow } from '../../db/repositories/signals.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { validStudyBody } from '../support/study-body.ts';
import {
  activeStudy,
  adminToken,
  analyzedSessionWithTasks,
  businessWithStudy,
  startSession,
  testTokenFor,
} from './fixtures.ts';

interface Attempt {
  state: string;
  startedAt: string;
  endedAt: string | null;
  timeOnTaskSeconds: number | null;
  ease: number | null;
  reason: string | null;
}
interface SessionAnswer {
  status: string;
  tasks: { order: number; title: string; description: string; attempt: Attempt | null }[];
}

const navigationAt = (page: string, occurredAt: string): EventRow => ({
  eventType: 'navigation',
  targetSelector: page,
  occurredAt,
  x: null,
  y: null,
  scrollY: null,
  inputLength: null,
  viewportWidth: null,
  viewportHeight: null,
});

/** Whether a transaction waits for the session's recording lock (db/repositories/signals.ts). */
const waitingOnRecordingLock = async (sessionId: string) => {
  // An advisory lock's bigint key is split over classid (high half) and objid (low half).
  const { rows } = await sql<{ waiting: boolean }>`
    select exists (
      select 1 from pg_locks
      where locktype = 'advisory' and not granted
        and ((classid::bigint << 32) | objid::bigint) = hashtextextended(${`session-recording:${sessionId}`}, 0)
    ) as waiting
  `.execute(testDatabase());
  return rows[0]!.waiting;
};

const attemptRows = (sessionId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('task_attempts as a')
      .innerJoin('study_tasks as t', 't.id', 'a.task_id')
      .select([
        't.position',
        'a.variant',
        'a.started_at',
        'a.ended_at',
        'a.outcome',
        'a.active_ms',
        'a.ease',
        'a.reason',
      ])
      .where('a.session_id', '=', sessionId)
      .orderBy('t.position')
      .execute(),
  );

// PATCH /api/sessions/:id with `task` (issue 31): the tester's progress on the study's tasks
// (validStudyBody: 1 "Find a product", 2 "Pay"), judged by the session workflow.
describe('task progress through PATCH /api/sessions/:id', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;

  before(async () => {
    api = await startTestApi();
    ({ business, jobId } = await businessWithStudy(api, 100));
  });
  after(() => api.stop());

  /** A fresh session and a PATCH sending its test token, as the extension does. */
  async function testerSession() {
    const session = await startSession(api, business, jobId);
    const headers = { 'X-Test-Token': await testTokenFor(session.sessionId) };
    const patch = (body: unknown) =>
      api.request('PATCH', `/api/sessions/${session.sessionId}`, { body, headers });
    const progress = async (task: Record<string, unknown>) => {
      const response = await patch({ task });
      assert.equal(response.status, 200, response.text);
      return response.body.data as SessionAnswer;
    };
    return { ...session, patch, progress };
  }

  it('the test token starts and completes a task: the answer and GET show the attempt, never the success criteria', async () => {
    const { sessionId, progress } = await testerSession();
    const started = await progress({ order: 1, state: 'started' });
    assert.equal(started.status, 'active');
    assert.deepEqual(
      started.tasks.map((task) => [task.order, task.title, task.attempt?.state ?? null]),
      [
        [1, 'Find a product', 'in_progress'],
        [2, 'Pay', null],
      ],
    );
    assert.ok(started.tasks.every((task) => !('successCriteria' in task)));
    assert.deepEqual(Object.keys(started.tasks[1]!).sort(), ['attempt', 'description', 'order', 'title']);

    const done = await progress({ order: 1, state: 'completed', ease: 6 });
    const attempt = done.tasks[0]!.attempt!;
    assert.equal(attempt.state, 'completed');
    assert.equal(attempt.ease, 6);
    assert.equal(attempt.reason, null);
    assert.ok(Date.parse(attempt.endedAt!) >= Date.parse(attempt.startedAt));
    assert.ok(attempt.timeOnTaskSeconds! >= 0);

    const read = await api.request('GET', `/api/sessions/${sessionId}`, { token: business });
    assert.deepEqual((read.body.data as SessionAnswer).tasks, done.tasks);
    const [row] = await attemptRows(sessionId);
    assert.equal(row!.outcome, 'completed');
    assert.equal(row!.ease, 6);
    assert.equal(row!.variant, null);
    assert.equal(row!.ended_at!.toISOString(), attempt.endedAt);
  });

  it('gives up on a task with a reason; a task still open when the session completes is recorded unfinished', async () => {
    const { sessionId, progress, patch } = await testerSession();
    await progress({ order: 1, state: 'started' });
    const gaveUp = await progress({
      order: 1,
      state: 'abandoned',
      ease: 2,
      reason: 'The search found nothing',
    });
    assert.deepEqual(
      [gaveUp.tasks[0]!.attempt!.state, gaveUp.tasks[0]!.attempt!.ease, gaveUp.tasks[0]!.attempt!.reason],
      ['abandoned', 2, 'The search found nothing'],
    );
    await progress({ order: 2, state: 'started' });
    const completed = await patch({ status: 'completed' });
    assert.equal(completed.status, 200, completed.text);
    const rows = await attemptRows(sessionId);
    assert.deepEqual(
      rows.map((row) => [row.position, row.outcome]),
      [
        [1, 'abandoned'],
        [2, 'unfinished'],
      ],
    );
    const { completed_at: completedAt } = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select('completed_at').where('id', '=', sessionId).executeTakeFirstOrThrow(),
    );
    assert.equal(rows[1]!.ended_at!.toISOString(), completedAt!.toISOString());
    assert.equal(rows[1]!.ease, null);
  });

  it('Agent 2 ties each finding to the task in progress at its moment; a give-up raises the findings of its task', async () => {
    const { sessionId } = await analyzedSessionWithTasks(api, business, jobId);
    const findings = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('session_notes as n')
        .leftJoin('study_tasks as t', 't.id', 'n.task_id')
        .select(['n.content', 'n.severity', 't.position'])
        .where('n.session_id', '=', sessionId)
        .where('n.pattern', '=', false)
        .orderBy('n.noted_at')
        .execute(),
    );
    assert.deepEqual(
      findings.map((note) => [note.content.split(':')[0], note.position]),
      [
        ['A control did not respond as expected', 1],
        ['An error interrupted the task', 2],
      ],
    );
    // The give-up of "Pay" (and its ease of 2) is told beside its error, and raises it.
    // Its reason is quoted, the tester's phone number redacted before any agent reads it.
    assert.match(
      findings[1]!.content,
      /the tester gave up on task 2, "Pay", after 40 s, saying "The card was refused, my number is \[phone number\]"/,
    );
    assert.doesNotMatch(findings[1]!.content, /07700/);
    assert.match(findings[1]!.content, /the tester rated task 2, "Pay" 2 of 7 for ease/);
    assert.equal(findings[1]!.severity, 'critical');
  });

  it('once a study has a session its tasks cannot change, whoever asks: the database refuses', async () => {
    const study = await businessWithStudy(api);
    const rename = () =>
      asSystem(testDatabase(), (tx) =>
        tx
          .updateTable('study_tasks')
          .set({ title: 'Renamed' })
          .where('study_id', '=', study.jobId)
          .where('position', '=', 1)
          .execute(),
      );
    await rename(); // no session yet
    await startSession(api, study.business, study.jobId);
    await assert.rejects(rename(), /a study's tasks cannot change once it has sessions/);
    const removeTask = asSystem(testDatabase(), (tx) =>
      tx.deleteFrom('study_tasks').where('study_id', '=', study.jobId).execute(),
    );
    await assert.rejects(removeTask, /cannot change once it has sessions/);
  });

  it('time on task leaves out the time the session was paused', async () => {
    const { sessionId, progress, patch } = await testerSession();
    await progress({ order: 2, state: 'started' });
    assert.equal((await patch({ status: 'paused' })).status, 200);
    const pausedFor = 1_500;
    await setTimeout(pausedFor);
    assert.equal((await patch({ status: 'active' })).status, 200);
    const done = await progress({ order: 2, state: 'completed', ease: 5 });
    const attempt = done.tasks[1]!.attempt!;
    const [row] = await attemptRows(sessionId);
    const span = Date.parse(attempt.endedAt!) - Date.parse(attempt.startedAt);
    // The pause began before the pause's answer and ended after the resume's request.
    assert.ok(row!.active_ms! <= span - pausedFor, `${row!.active_ms} ms on task of ${span} ms`);
    assert.equal(attempt.timeOnTaskSeconds, Math.round(row!.active_ms! / 100) / 10);
  });

  it('refuses what the rules forbid with the envelope, changing nothing', async () => {
    const { sessionId, patch } = await testerSession();
    const refused = async (body: unknown, status: number, error: RegExp) => {
      const before = await attemptRows(sessionId);
      const response = await patch(body);
      assert.equal(response.status, status, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(response.body.success, false);
      assert.match(response.body.error ?? '', error);
      assert.deepEqual(await attemptRows(sessionId), before, `${JSON.stringify(body)} changed the attempts`);
    };
    await refused({ task: { order: 3, state: 'started' } }, 422, /^task\.order: The study has no task 3/);
    await refused({ task: { order: 0, state: 'started' } }, 422, /^task\.order: /);
    await refused({ task: { order: 1, state: 'finished' } }, 422, /^task\.state: /);
    await refused(
      { task: { order: 1, state: 'completed' } },
      409,
      /Task 1 is not in progress: start it first/,
    );
    await refused(
      { task: { order: 1, state: 'started', ease: 4 } },
      422,
      /^task\.ease: Only when the task ends/,
    );
    await refused(
      { status: 'paused', task: { order: 1, state: 'started' } },
      422,
      /^task: Give either status or task/,
    );
    await refused({}, 422, /^status: Give either status or task/);
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    await refused(
      { task: { order: 1, state: 'started', at: inAnHour } },
      422,
      /^task\.at: Must not be in the future/,
    );
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await refused(
      { task: { order: 1, state: 'started', at: yesterday } },
      422,
      /^task\.at: Must not be before the session started/,
    );

    const startedAt = new Date().toISOString();
    assert.equal((await patch({ task: { order: 1, state: 'started', at: startedAt } })).status, 200);
    await refused(
      { task: { order: 2, state: 'started' } },
      409,
      /Task 1 is in progress: complete or abandon it/,
    );
    await refused({ task: { order: 1, state: 'started' } }, 409, /Task 1 is already in progress/);
    await refused({ task: { order: 1, state: 'completed', ease: 8 } }, 422, /^task\.ease: Must be 1 to 7/);
    await refused(
      { task: { order: 1, state: 'completed', reason: 'x' } },
      422,
      /^task\.reason: Only when the task is abandoned/,
    );
    const beforeStart = new Date(Date.parse(startedAt) - 60_000).toISOString();
    await refused(
      { task: { order: 1, state: 'completed', at: beforeStart } },
      422,
      /^task\.at: Must not be before the task started/,
    );
    assert.equal((await patch({ task: { order: 1, state: 'completed' } })).status, 200);
    await refused(
      { task: { order: 1, state: 'started' } },
      409,
      /Task 1 was already attempted \(completed\)/,
    );
    await refused(
      { task: { order: 1, state: 'abandoned' } },
      409,
      /Task 1 is not in progress \(its attempt ended completed\)/,
    );

    assert.equal((await patch({ status: 'paused' })).status, 200);
    await refused(
      { task: { order: 2, state: 'started' } },
      409,
      /Session must be active to record task progress \(it is paused\)/,
    );
    assert.equal((await patch({ status: 'completed' })).status, 200);
    await refused(
      { task: { order: 2, state: 'started' } },
      409,
      /Session must be active to record task progress/,
    );
  });

  it("only the session's tester reports its tasks: the organization and admins are 403", async () => {
    const { sessionId } = await testerSession();
    for (const token of [business, await adminToken()]) {
      const response = await api.request('PATCH', `/api/sessions/${sessionId}`, {
        body: { task: { order: 1, state: 'started' } },
        token,
      });
      assert.equal(response.status, 403, response.text);
      assert.match(response.body.error ?? '', /Only the session's tester reports progress on its tasks/);
    }
    assert.deepEqual(await attemptRows(sessionId), []);
  });

  it("another session's test token cannot report its tasks (403)", async () => {
    const mine = await testerSession();
    const other = await testerSession();
    const response = await api.request('PATCH', `/api/sessions/${other.sessionId}`, {
      body: { task: { order: 1, state: 'started' } },
      headers: { 'X-Test-Token': await testTokenFor(mine.sessionId) },
    });
    assert.equal(response.status, 403, response.text);
    assert.deepEqual(await attemptRows(other.sessionId), []);
  });

  describe('GET /api/jobs/:id/results', () => {
    interface Figures {
      testers: number;
      completed: number | null;
      abandoned: number | null;
      unfinished: number | null;
      completionRate: { value: number; low: number; high: number } | null;
      timeOnTaskSeconds: { value: number; low: number; high: number } | null;
      meanEase: number | null;
      withheld: boolean;
    }
    interface Results {
      jobId: string;
      minimumGroupTesters: number;
      tasks: {
        order: number;
        title: string;
        overall: Figures;
        byVariant: (Figures & { group: string })[];
        byAssistiveTechnology: (Figures & { group: string })[];
        byDevice: (Figures & { group: string })[];
        byCountry: (Figures & { group: string })[];
      }[];
    }

    it('answers per task, live: completion with its interval, time and ease, by kind of tester; for the organization and admins only', async () => {
      const study = await businessWithStudy(api, 100);
      const outcomes = ['completed', 'completed', 'completed', 'abandoned', 'unfinished'] as const;
      let tester = '';
      for (const outcome of outcomes) {
        const session = await startSession(api, study.business, study.jobId);
        tester = session.testerToken;
        const headers = { 'X-Test-Token': await testTokenFor(session.sessionId) };
        const send = (body: unknown) =>
          api.request('PATCH', `/api/sessions/${session.sessionId}`, { body, headers });
        assert.equal((await send({ task: { order: 1, state: 'started' } })).status, 200);
        const end =
          outcome === 'unfinished'
            ? await send({ status: 'completed' })
            : await send({ task: { order: 1, state: outcome, ease: outcome === 'completed' ? 6 : 2 } });
        assert.equal(end.status, 200, end.text);
      }

      const response = await api.request('GET', `/api/jobs/${study.jobId}/results`, {
        token: study.business,
      });
      assert.equal(response.status, 200, response.text);
      const results = response.body.data as Results;
      assert.equal(results.jobId, study.jobId);
      assert.deepEqual(
        results.tasks.map((task) => [task.order, task.title]),
        [
          [1, 'Find a product'],
          [2, 'Pay'],
        ],
      );
      const [first, second] = results.tasks;
      const overall = first!.overall;
      assert.deepEqual(
        [overall.testers, overall.completed, overall.abandoned, overall.unfinished],
        [5, 3, 1, 1],
      );
      assert.equal(overall.completionRate!.value, 0.6);
      assert.ok(overall.completionRate!.low < 0.6 && overall.completionRate!.high > 0.6);
      assert.equal(overall.meanEase, (6 * 3 + 2) / 4);
      assert.ok(overall.timeOnTaskSeconds === null || overall.timeOnTaskSeconds.value > 0);
      assert.deepEqual(first!.byVariant, []);
      assert.deepEqual(
        first!.byCountry.map((group) => [group.group, group.testers, group.withheld]),
        [['GB', 5, false]],
      );
      assert.deepEqual(
        first!.byAssistiveTechnology.map((group) => [group.group, group.testers]),
        [['none', 5]],
      );
      assert.equal(second!.overall.testers, 0);
      assert.equal(second!.overall.completionRate, null);

      const admin = await api.request('GET', `/api/jobs/${study.jobId}/results`, {
        token: await adminToken(),
      });
      assert.equal(admin.status, 200, admin.text);
      const asTester = await api.request('GET', `/api/jobs/${study.jobId}/results`, { token: tester });
      assert.equal(asTester.status, 403, asTester.text);
      const stranger = await sessionToken((await createBusiness('pro')).claims);
      const other = await api.request('GET', `/api/jobs/${study.jobId}/results`, { token: stranger });
      assert.equal(other.status, 404, other.text);
    });

    /** A study whose first task's success criteria name a page, /booking/confirmed. */
    async function bookingStudy() {
      const business = await sessionToken((await createBusiness('pro')).claims);
      const jobId = await activeStudy(api, business, {
        ...validStudyBody(),
        tasks: [
          {
            title: 'Book',
            description: 'Book a table for two',
            successCriteria: 'The tester reaches /booking/confirmed.',
            order: 1,
          },
          { title: 'Read', description: 'Read the menu', successCriteria: 'The menu is read', order: 2 },
        ],
        targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 10 },
      });
      return { business, jobId };
    }

    /** A session of the study that began ten minutes ago, so every moment below is in its past. */
    async function pastSession(business: string, jobId: string) {
      const session = await startSession(api, business, jobId);
      const headers = { 'X-Test-Token': await testTokenFor(session.sessionId) };
      await asSystem(testDatabase(), (tx) =>
        tx
          .updateTable('sessions')
          .set({ started_at: new Date(Date.now() - 600_000) })
          .where('id', '=', session.sessionId)
          .execute(),
      );
      const start = Date.now() - 300_000;
      const iso = (offset: number) => new Date(start + offset).toISOString();
      const send = async (body: unknown) => {
        const response = await api.request('PATCH', `/api/sessions/${session.sessionId}`, { body, headers });
        assert.equal(response.status, 200, response.text);
      };
      return { ...session, headers, iso, send };
    }

    it("judges each attempt against the page its task's success criteria name when the session completes, whatever order signals and reports arrived in", async () => {
      const { business, jobId } = await bookingStudy();
      const results = async () => {
        const response = await api.request('GET', `/api/jobs/${jobId}/results`, { token: business });
        assert.equal(response.status, 200, response.text);
        return (response.body.data as { tasks: { successPage: unknown }[] }).tasks.map(
          (task) => task.successPage,
        );
      };

      // Each tester's navigations, relative to their task's start, and when they arrive: before the
      // task's start is reported, between start and end, or after its end.
      const testers = [
        { outcome: 'completed', pages: ['/booking/confirmed'], sent: 'after end' },
        { outcome: 'completed', pages: ['/booking'], sent: 'before start' }, // said done, never reached
        { outcome: 'abandoned', pages: ['/booking/confirmed/'], sent: 'between' }, // gave up after reaching
      ] as const;
      const sessions = [];
      for (const tester of testers) {
        const { sessionId, headers, iso, send } = await pastSession(business, jobId);
        const events = async () => {
          const batch = [
            // The success page outside the attempt counts for nothing.
            { eventType: 'navigation', targetSelector: '/booking/confirmed', timestamp: iso(-500) },
            ...tester.pages.map((page) => ({
              eventType: 'navigation',
              targetSelector: page,
              timestamp: iso(100),
            })),
            { eventType: 'navigation', targetSelector: '/booking/confirmed', timestamp: iso(900) },
          ];
          const response = await api.request('POST', `/api/sessions/${sessionId}/events`, {
            body: { batch },
            headers,
          });
          assert.equal(response.status, 200, response.text);
        };
        if (tester.sent === 'before start') await events();
        await send({ task: { order: 1, state: 'started', at: iso(0) } });
        if (tester.sent === 'between') await events();
        await send({ task: { order: 1, state: tester.outcome, at: iso(200), ease: 4 } });
        if (tester.sent === 'after end') await events();
        sessions.push(send);
      }
      // Live: the attempts have ended, but no session has completed, so none is judged yet.
      assert.deepEqual(await results(), [
        { page: '/booking/confirmed', judged: 0, reached: 0, doneWithoutReaching: 0, gaveUpAfterReaching: 0 },
        null,
      ]);
      for (const send of sessions) await send({ status: 'completed' });
      assert.deepEqual(await results(), [
        { page: '/booking/confirmed', judged: 3, reached: 2, doneWithoutReaching: 1, gaveUpAfterReaching: 1 },
        null,
      ]);
    });

    it('a signal batch still being written when the session completes is judged with it: completion waits for it', async () => {
      const { business, jobId } = await bookingStudy();
      const { sessionId, tester, iso, send } = await pastSession(business, jobId);
      await send({ task: { order: 1, state: 'started', at: iso(0) } });
      await send({ task: { order: 1, state: 'completed', at: iso(200), ease: 6 } });

      // The batch reaching the success page is written but not yet committed...
      let commit = () => {};
      const committed = new Promise<void>((resolve) => (commit = resolve));
      let written = () => {};
      const inFlight = new Promise<void>((resolve) => (written = resolve));
      const batch = asUser(testDatabase(), tester, async (tx) => {
        const outcome = await insertEvents(
          tx,
          sessionId,
          [navigationAt('/booking/confirmed', iso(100))],
          'refuse',
        );
        assert.deepEqual(outcome, { kind: 'recorded', stored: 1 });
        written();
        await committed;
      });
      await inFlight;
      // ...when the tester completes the session: its judgement waits for the batch to commit.
      let settled = false;
      const completion = send({ status: 'completed' }).finally(() => (settled = true));
      while (!settled && !(await waitingOnRecordingLock(sessionId))) await setTimeout(20);
      commit();
      await Promise.all([batch, completion]);
      const reached = await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('task_attempts')
          .select(['success_page', 'success_reached_at'])
          .where('session_id', '=', sessionId)
          .execute(),
      );
      assert.equal(reached.length, 1);
      assert.equal(reached[0]!.success_page, '/booking/confirmed');
      assert.equal(reached[0]!.success_reached_at?.toISOString(), iso(100), 'the batch in flight was judged');

      // A batch sent after completion finds the session closed.
      const late = await asUser(testDatabase(), tester, (tx) =>
        insertEvents(tx, sessionId, [navigationAt('/elsewhere', iso(300))], 'refuse'),
      );
      assert.equal(late.kind, 'closed');
    });
  });
});
