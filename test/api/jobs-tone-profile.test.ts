import assert from 'node:assert/strict';
import { asSystem, asUser, type Tx } from '../../db/doors.ts';
import type { ToneProfile } from '../../lib/domain.ts';
import { addReport, confirmedSession, profiledTester } from '../ai/fixtures.ts';
import { activeStudy } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, type BusinessFixture } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';

interface StudyRead {
  jobId: string;
  status: string;
  toneProfile: string;
}

const FIXED = 'Tone profile is fixed once Agent 3 has run for the study';

describe('PATCH /api/jobs/:id toneProfile: fixed once Agent 3 has run for the study', () => {
  let api: TestApi;
  let business: BusinessFixture;
  let token: string;

  const patch = (jobId: string, body: unknown) => api.request('PATCH', `/api/jobs/${jobId}`, { body, token });
  const read = async (jobId: string) =>
    (await api.request('GET', `/api/jobs/${jobId}`, { token })).body.data as StudyRead;
  /** An active study (tone moderate) with one confirmed session and its tester report. */
  const reportedStudy = async () => {
    const jobId = await activeStudy(api, token);
    await confirmedSession(jobId, await profiledTester({ country: 'GB', devices: ['desktop'] }));
    return jobId;
  };
  const setTone = (jobId: string, tone: ToneProfile) => (tx: Tx) =>
    tx.updateTable('studies').set({ tone_profile: tone }).where('id', '=', jobId).execute();

  before(async () => {
    api = await startTestApi();
    business = await createBusiness('pro');
    token = await sessionToken(business.claims);
  });
  after(() => api.stop());

  it('changes while no tester report exists, in draft and once active', async () => {
    const created = await api.request('POST', '/api/jobs', { body: validStudyBody(), token });
    const draft = (created.body.data as StudyRead).jobId;
    const changed = await patch(draft, { toneProfile: 'restorative' });
    assert.equal(changed.status, 200, changed.text);
    assert.equal((changed.body.data as StudyRead).toneProfile, 'restorative');
    assert.equal((await read(draft)).toneProfile, 'restorative');

    const active = await activeStudy(api, token);
    assert.equal((await patch(active, { toneProfile: 'supportive' })).status, 200);
    assert.equal((await read(active)).toneProfile, 'supportive');
  });

  it('after Agent 3 has written a report of the study: 409 naming the reason, and nothing in the request is applied', async () => {
    const jobId = await reportedStudy();
    const refused = await patch(jobId, { toneProfile: 'standard' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, FIXED);
    const withStatus = await patch(jobId, { toneProfile: 'standard', status: 'paused' });
    assert.equal(withStatus.status, 409);
    assert.deepEqual([(await read(jobId)).toneProfile, (await read(jobId)).status], ['moderate', 'active']);
    // Naming the tone it already has changes nothing, so nothing is refused.
    const same = await patch(jobId, { toneProfile: 'moderate' });
    assert.equal(same.status, 200, same.text);
  });

  it('an unknown tone is 422 naming toneProfile', async () => {
    const jobId = await activeStudy(api, token);
    const response = await patch(jobId, { toneProfile: 'harsh' });
    assert.equal(response.status, 422);
    assert.match(response.body.error!, /^toneProfile: /);
  });

  it('the database holds the rule too: no tone change on a study with reports, whoever asks', async () => {
    const jobId = await reportedStudy();
    await assert.rejects(asSystem(testDatabase(), setTone(jobId, 'standard')), new RegExp(FIXED));
    await assert.rejects(
      asUser(testDatabase(), business.claims, setTone(jobId, 'standard')),
      new RegExp(FIXED),
    );
    assert.equal((await read(jobId)).toneProfile, 'moderate');
  });

  it('the database writes a report only in its study’s current tone', async () => {
    const jobId = await activeStudy(api, token);
    const tester = await profiledTester({ country: 'GB', devices: ['desktop'] });
    const sessionId = await confirmedSession(jobId, tester, { report: false });
    // Words chosen in the old tone meet a tone changed since: the report is refused, so Agent 3
    // words it again rather than fixing the study's tone on a report in another one.
    await asSystem(testDatabase(), setTone(jobId, 'supportive'));
    await assert.rejects(
      addReport(jobId, sessionId, tester, {}),
      /A report must use its study's tone profile \(supportive\), not moderate/,
    );
    await asSystem(testDatabase(), setTone(jobId, 'moderate'));
    await addReport(jobId, sessionId, tester, {});
    assert.equal((await patch(jobId, { toneProfile: 'standard' })).status, 409);
  });
});
