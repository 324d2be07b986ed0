import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { analyzedSession, businessWithStudy, completedReportJob, readNotes } from './fixtures.ts';

interface Finding {
  findingId: string;
  title: string;
  screenshots?: unknown[];
  screenshotNote?: string | null;
}
interface Report {
  reportFormat: string;
  overallScore: number;
  findings: Finding[];
  recommendations: string[];
  emotionalProfile: Record<string, number>;
  narrative?: string;
}

/** What a report states, whatever its rendering. */
const factsOf = (report: Report) => ({
  overallScore: report.overallScore,
  findings: report.findings.map(({ screenshots: _none, screenshotNote: _note, ...finding }) => finding),
  recommendations: report.recommendations,
  emotionalProfile: report.emotionalProfile,
});

describe('POST /api/reports reportFormat and includeScreenshots', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;

  before(async () => {
    api = await startTestApi();
    ({ business, jobId } = await businessWithStudy(api, 5));
  });
  after(() => api.stop());

  const read = async (path: string, token: string) => {
    const response = await api.request('GET', path, { token });
    assert.equal(response.status, 200, response.text);
    return (response.body.data as { report: Report }).report;
  };

  it('serves the requested format as a rendering of the stored facts; a later request re-renders, never re-runs Agent 3', async () => {
    const { sessionId, testerToken } = await analyzedSession(api, business, jobId);
    const confirmed = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 4 },
      token: testerToken,
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    const findings = await readNotes(api, sessionId, testerToken);

    const narrativeJob = await completedReportJob(api, sessionId, business, {
      reportFormat: 'narrative',
      includeScreenshots: true,
    });
    assert.equal(narrativeJob.reportFormat, 'narrative');
    assert.equal(narrativeJob.includeScreenshots, true);
    assert.equal(
      narrativeJob.reportUrl,
      `/api/reports/${narrativeJob.reportId}?format=narrative&includeScreenshots=true`,
    );
    const narrative = await read(narrativeJob.reportUrl, business);
    assert.equal(narrative.reportFormat, 'narrative');
    assert.ok(narrative.findings.every((finding) => Array.isArray(finding.screenshots)));
    assert.match(
      narrative.narrative!,
      new RegExp(`^Overall score ${narrative.overallScore} of 100, from 2 confirmed findings\\.`),
    );
    for (const finding of narrative.findings)
      assert.ok(narrative.narrative!.includes(finding.title), finding.title);

    const structuredJob = await completedReportJob(api, sessionId, testerToken, {
      reportFormat: 'structured',
    });
    assert.equal(structuredJob.reportJobId, narrativeJob.reportJobId);
    assert.equal(
      structuredJob.reportUrl,
      `/api/reports/${narrativeJob.reportId}?format=structured&includeScreenshots=false`,
    );
    const structured = await read(structuredJob.reportUrl, testerToken);
    assert.equal(structured.reportFormat, 'structured');
    assert.equal(structured.narrative, undefined);
    assert.ok(structured.findings.every((finding) => !('screenshots' in finding)));
    assert.deepEqual(await read(`/api/reports/${narrativeJob.reportId}`, testerToken), structured);

    // The same facts in both: findings, score, recommendations and emotional profile.
    assert.deepEqual(factsOf(narrative), factsOf(structured));
    assert.deepEqual(
      structured.findings.map((finding) => finding.findingId).sort(),
      findings.map((note) => note.noteId).sort(),
    );
    const agent3Jobs = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('agent_jobs')
        .select('id')
        .where('session_id', '=', sessionId)
        .where('kind', '=', 'agent3')
        .execute(),
    );
    assert.equal(agent3Jobs.length, 1);
  });

  it('an unknown format is 422 naming it, in the request and in the read', async () => {
    const { sessionId } = await analyzedSession(api, business, jobId);
    const post = await api.request('POST', '/api/reports', {
      body: { sessionId, reportFormat: 'pdf' },
      token: business,
    });
    assert.equal(post.status, 422);
    assert.equal(post.body.error, 'reportFormat: Must be structured or narrative');
    const get = await api.request('GET', `/api/reports/${sessionId}?format=pdf`, { token: business });
    assert.equal(get.status, 422);
    assert.equal(get.body.error, 'format: Must be structured or narrative');
  });
});
