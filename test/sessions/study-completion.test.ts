import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import { testDatabase } from '../support/database.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { activeStudy, analyzedSession, waitFor, type TesterSession } from './fixtures.ts';

/**
 * How many confirmations the study workflow has finished handling: each runs `studyTargetReached`
 * once, and the workflow has acted on the answer once a workflow task completed after it.
 */
async function confirmationsHandled(jobId: string): Promise<number> {
  const handle = (await temporalEnvironment()).client.workflow.getHandle(studyWorkflowId(jobId));
  const events = (await handle.fetchHistory()).events ?? [];
  const targetChecks = new Set(
    events
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'studyTargetReached')
      .map((e) => String(e.eventId)),
  );
  const done = events.filter((e) =>
    targetChecks.has(String(e.activityTaskCompletedEventAttributes?.scheduledEventId)),
  ).length;
  const last = events.at(-1);
  const settled = Boolean(
    last?.workflowTaskCompletedEventAttributes ?? last?.workflowExecutionCompletedEventAttributes,
  );
  return settled ? done : -1;
}

describe('study completion after confirmed sessions', () => {
  let api: TestApi;
  let business: string;

  const studyStatus = async (jobId: string) =>
    ((await api.request('GET', `/api/jobs/${jobId}`, { token: business })).body.data as { status: string })
      .status;
  const confirm = async ({ sessionId, testerToken }: TesterSession) => {
    const response = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 5 },
      token: testerToken,
    });
    assert.equal(response.status, 200, response.text);
  };
  const studyOfTwo = () =>
    activeStudy(api, business, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 2 },
    });

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
  });
  after(() => api.stop());

  it('a study of two testers stays active after one confirmed session and completes at the second', async () => {
    const jobId = await studyOfTwo();
    const first = await analyzedSession(api, business, jobId);
    const second = await analyzedSession(api, business, jobId);
    await confirm(first);
    await waitFor(async () => (await confirmationsHandled(jobId)) === 1);
    assert.equal(await studyStatus(jobId), 'active');
    await confirm(second);
    await waitFor(async () => (await studyStatus(jobId)) === 'completed');

    // A completed study is still archived through its workflow.
    const archived = await api.request('PATCH', `/api/jobs/${jobId}`, {
      body: { status: 'archived' },
      token: business,
    });
    assert.equal(archived.status, 200, archived.text);
    assert.equal(await studyStatus(jobId), 'archived');
  });

  it("the study's notesConfirmed is true only while every live session's findings are confirmed: a new session clears it", async () => {
    const jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 3 },
    });
    const notesConfirmed = async () =>
      (
        (await api.request('GET', `/api/jobs/${jobId}`, { token: business })).body.data as {
          notesConfirmed: boolean;
        }
      ).notesConfirmed;
    const first = await analyzedSession(api, business, jobId);
    assert.equal(await notesConfirmed(), false);
    await confirm(first);
    assert.equal(await notesConfirmed(), true);
    const second = await analyzedSession(api, business, jobId);
    assert.equal(await notesConfirmed(), false);
    await confirm(second);
    assert.equal(await notesConfirmed(), true);
  });

  it('a paused study completes when its last session is confirmed', async () => {
    const jobId = await studyOfTwo();
    const first = await analyzedSession(api, business, jobId);
    const second = await analyzedSession(api, business, jobId);
    await confirm(first);
    await waitFor(async () => (await confirmationsHandled(jobId)) === 1);
    const paused = await api.request('PATCH', `/api/jobs/${jobId}`, {
      body: { status: 'paused' },
      token: business,
    });
    assert.equal(paused.status, 200, paused.text);
    assert.equal(await studyStatus(jobId), 'paused');
    await confirm(second);
    await waitFor(async () => (await studyStatus(jobId)) === 'completed');
  });

  it('the tester gets the review link once the findings are ready; the business gets "report ready" for the tester report and the study report', async () => {
    const jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 1 },
    });
    const session = await analyzedSession(api, business, jobId);
    const outbox = (kind: string) =>
      asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('notification_outbox')
          .select(['channel', 'recipient', 'subject', 'body', 'payload'])
          .where('kind', '=', kind)
          .where((eb) =>
            eb.or([
              eb(sql<string>`payload ->> 'sessionId'`, '=', session.sessionId),
              eb(sql<string>`payload ->> 'studyId'`, '=', jobId),
            ]),
          )
          .execute(),
      );
    await waitFor(async () => (await outbox('confirmation_request')).length === 1);
    const [request] = await outbox('confirmation_request');
    assert.ok(request!.body.includes(`${api.config.http.baseUrl}/sessions/${session.sessionId}/review`));
    assert.equal((await outbox('report_ready')).length, 0);

    await confirm(session);
    await waitFor(async () => (await outbox('report_ready')).length === 2);
    const subjects = (await outbox('report_ready')).map((row) => row.subject).sort();
    assert.match(subjects[0]!, /^A tester report for ".*" is ready$/);
    assert.match(subjects[1]!, /^The study report for ".*" is ready$/);
  });
});
