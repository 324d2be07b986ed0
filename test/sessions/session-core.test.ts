import assert from 'node:assert/strict';
import { createOfferActivities } from '../../activities/outreach/offer-activities.ts';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { businessWithStudy, eligibleTester } from './fixtures.ts';
import { openOffer } from './lifecycle-fixtures.ts';

const studyRow = (jobId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('studies').select(['notes_confirmed']).where('id', '=', jobId).executeTakeFirstOrThrow(),
  );

const liveSessions = (jobId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('sessions')
      .select('tester_id')
      .where('study_id', '=', jobId)
      .where('status', '<>', 'cancelled')
      .execute(),
  );

/** As if every earlier session of the study had been confirmed by its tester. */
const markNotesConfirmed = (jobId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.updateTable('studies').set({ notes_confirmed: true }).where('id', '=', jobId).execute(),
  );

describe('one session core: POST /api/sessions and accepting an offer', () => {
  let api: TestApi;
  const offers = createOfferActivities({ db: serviceDatabase() });
  const accept = (outreachId: string) =>
    offers.answerOffer({ outreachId, answer: 'accept', at: new Date().toISOString() });

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.stop());

  it('neither path takes more than testerCount sessions: a full study answers 409 to the API and "filled" to an offer', async () => {
    const { business, jobId } = await businessWithStudy(api, 2);
    const create = async (testerId: string) =>
      api.request('POST', '/api/sessions', { body: { jobId, testerId }, token: business });
    const [byApi, byOffer, lateApi, lateOffer] = await Promise.all([1, 2, 3, 4].map(() => eligibleTester()));

    assert.equal((await create(byApi!.sub)).status, 201);
    const accepted = await accept(await openOffer(jobId, byOffer!.sub));
    assert.equal(accepted.outcome, 'accepted');

    const refused = await create(lateApi!.sub);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error, 'The study has no free place: all 2 of its sessions are taken');
    const lateOutreach = await openOffer(jobId, lateOffer!.sub);
    const filled = await accept(lateOutreach);
    assert.equal(filled.outcome, 'filled');
    assert.equal(filled.session, undefined);
    const offer = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('outreach_messages')
        .select(['offer_status', 'session_id'])
        .where('id', '=', lateOutreach)
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual(offer, { offer_status: 'withdrawn', session_id: null });
    assert.deepEqual(
      (await liveSessions(jobId)).map((s) => s.tester_id).sort(),
      [byApi!.sub, byOffer!.sub].sort(),
    );
  });

  it("a session opened by accepting an offer, or through the API, leaves the study's notes_confirmed false", async () => {
    const { business, jobId } = await businessWithStudy(api, 3);
    await markNotesConfirmed(jobId);
    const byOffer = await eligibleTester();
    const accepted = await accept(await openOffer(jobId, byOffer.sub));
    assert.equal(accepted.outcome, 'accepted');
    assert.equal((await studyRow(jobId)).notes_confirmed, false);

    await markNotesConfirmed(jobId);
    const byApi = await eligibleTester();
    const created = await api.request('POST', '/api/sessions', {
      body: { jobId, testerId: byApi.sub },
      token: business,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await studyRow(jobId)).notes_confirmed, false);
  });

  it('a tester with a live session on the study gets no second one by either path', async () => {
    const { business, jobId } = await businessWithStudy(api, 3);
    const tester = await eligibleTester();
    const created = await api.request('POST', '/api/sessions', {
      body: { jobId, testerId: tester.sub },
      token: business,
    });
    assert.equal(created.status, 201, created.text);
    const again = await api.request('POST', '/api/sessions', {
      body: { jobId, testerId: tester.sub },
      token: business,
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'The tester already has a session on this study');
    const offer = await accept(await openOffer(jobId, tester.sub));
    assert.equal(offer.outcome, 'withdrawn');
    assert.equal((await liveSessions(jobId)).length, 1);
  });

  it('the last free place goes to one of two at once, an API create and an offer acceptance', async () => {
    const { business, jobId } = await businessWithStudy(api, 1);
    const [byApi, byOffer] = await Promise.all([eligibleTester(), eligibleTester()]);
    const outreachId = await openOffer(jobId, byOffer.sub);
    const [created, accepted] = await Promise.all([
      api.request('POST', '/api/sessions', { body: { jobId, testerId: byApi.sub }, token: business }),
      accept(outreachId),
    ]);
    const winners = [created.status === 201, accepted.outcome === 'accepted'].filter(Boolean);
    assert.equal(winners.length, 1, `${created.status} ${created.text} / ${accepted.outcome}`);
    if (created.status !== 201) assert.equal(created.status, 409);
    else assert.equal(accepted.outcome, 'filled');
    assert.equal((await liveSessions(jobId)).length, 1);
  });

  it('a variant the study does not have answers 422 even when the study is full', async () => {
    const { business, jobId } = await businessWithStudy(api, 1);
    const [first, second] = await Promise.all([eligibleTester(), eligibleTester()]);
    const create = (testerId: string, variant?: string) =>
      api.request('POST', '/api/sessions', {
        body: { jobId, testerId, ...(variant ? { variant } : {}) },
        token: business,
      });
    assert.equal((await create(first.sub)).status, 201);
    const wrong = await create(second.sub, 'Z');
    assert.equal(wrong.status, 422, wrong.text);
    assert.equal(wrong.body.error, 'variant: This study runs a single variant');
    assert.equal((await create(second.sub)).status, 409);
  });

  it('an offer to a tester who has a session on a study that is full answers "filled"', async () => {
    const { business, jobId } = await businessWithStudy(api, 1);
    const tester = await eligibleTester();
    const created = await api.request('POST', '/api/sessions', {
      body: { jobId, testerId: tester.sub },
      token: business,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await accept(await openOffer(jobId, tester.sub))).outcome, 'filled');
  });
});
