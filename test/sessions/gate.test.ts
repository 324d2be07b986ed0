import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import { activeStudy, eligibleTester, recordStruggle, waitFor, waitForSessionStatus } from './fixtures.ts';

interface Note {
  noteId: string;
  content: string;
  wcagCriterion: string | null;
}
interface Report {
  reportId: string;
  report: { findings: { findingId: string; description: string; wcag: { criterion: string } | null }[] };
}

describe('the human-in-the-loop gate', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
    jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 1 },
    });
  });
  after(() => api.stop());

  it('no route produces or exposes a finding before confirmation, and none ever exposes a rejected one', async () => {
    const tester = await eligibleTester();
    const testerToken = await sessionToken(tester);
    const created = await api.request('POST', '/api/sessions', {
      body: { jobId, testerId: tester.sub },
      token: business,
    });
    const { sessionId } = created.body.data as { sessionId: string };
    const reportFor = (token: string) => api.request('POST', '/api/reports', { body: { sessionId }, token });

    const whileActive = await reportFor(business);
    assert.equal(whileActive.status, 409);
    assert.equal(
      whileActive.body.error,
      'Session findings must be confirmed by the tester before a report (the session is active)',
    );

    await recordStruggle(sessionId);
    await api.request('POST', `/api/sessions/${sessionId}/complete`, { body: {}, token: business });
    await waitForSessionStatus(api, sessionId, business, 'analyzed');
    for (const token of [business, testerToken]) {
      const early = await reportFor(token);
      assert.equal(early.status, 409);
      assert.equal(
        early.body.error,
        'Session findings must be confirmed by the tester before a report (the session is analyzed)',
      );
    }
    const orgNotes = (await api.request('GET', `/api/sessions/${sessionId}/notes`, { token: business })).body
      .data as { notes: Note[] };
    assert.deepEqual(orgNotes.notes, []);

    const notes = (
      (await api.request('GET', `/api/sessions/${sessionId}/notes`, { token: testerToken })).body.data as {
        notes: Note[];
      }
    ).notes;
    assert.equal(notes.length, 2);
    const rejected = notes.find((note) => note.wcagCriterion === '3.3.1')!;
    const kept = notes.find((note) => note.wcagCriterion === '4.1.2')!;
    const confirm = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 5, notes: [{ noteId: rejected.noteId, decision: 'rejected' }] },
      token: testerToken,
    });
    assert.equal(confirm.status, 200, confirm.text);

    // No way back in: notes are locked once confirmed.
    const inject = await api.request('PATCH', `/api/sessions/${sessionId}/notes`, {
      body: { notes: [{ content: rejected.content }] },
      token: business,
    });
    assert.equal(inject.status, 409);

    const reports: Report[] = [];
    for (const token of [business, testerToken]) {
      const job = await reportFor(token);
      assert.equal(job.status, 202, job.text);
      const { reportId, status } = job.body.data as { reportId: string; status: string };
      assert.equal(status, 'complete');
      const read = await api.request('GET', `/api/reports/${reportId}`, { token });
      assert.equal(read.status, 200, read.text);
      reports.push(read.body.data as Report);
    }
    for (const { report } of reports) {
      assert.deepEqual(
        report.findings.map((f) => f.findingId),
        [kept.noteId],
      );
      assert.equal(report.findings[0]!.wcag?.criterion, '4.1.2');
      assert.ok(report.findings.every((f) => !f.description.includes('#card-number')));
    }
    const orgAfter = (
      (await api.request('GET', `/api/sessions/${sessionId}/notes`, { token: business })).body.data as {
        notes: Note[];
      }
    ).notes;
    assert.deepEqual(
      orgAfter.map((note) => note.noteId),
      [kept.noteId],
    );

    // The study's target was one confirmed session: it is now completed.
    await waitFor(async () => {
      const study = await api.request('GET', `/api/jobs/${jobId}`, { token: business });
      return (study.body.data as { status: string }).status === 'completed';
    });
  });
});
