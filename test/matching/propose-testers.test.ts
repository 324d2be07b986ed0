import assert from 'node:assert/strict';
import type { Insertable } from 'kysely';
import { createCapacityNoticeActivities } from '../../activities/matching/capacity-notice-activities.ts';
import { createMatchingActivities, placesWanted } from '../../activities/matching/matching-activities.ts';
import { asSystem } from '../../db/doors.ts';
import type { TesterProfilesTable } from '../../db/schema-testers.ts';
import { insertStudy } from '../auth/helpers.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
const matching = () => createMatchingActivities({ db: serviceDatabase(), now: () => NOW });

/** A tester with a qualified, active profile, changed by `profile`; `suspended` suspends the account. */
async function tester(
  profile: Partial<Insertable<TesterProfilesTable>> = {},
  account: 'active' | 'suspended' = 'active',
) {
  const { sub } = await createTester();
  await asSystem(testDatabase(), async (tx) => {
    await tx
      .insertInto('tester_profiles')
      .values({
        user_id: sub,
        country: 'IS',
        devices: ['desktop'],
        languages: ['en'],
        birth_year: 1990,
        status: 'active',
        quiz_score: 90,
        quiz_passed: true,
        quiz_completed_at: NOW,
        ...profile,
      })
      .execute();
    if (account === 'suspended')
      await tx.updateTable('users').set({ status: 'suspended' }).where('id', '=', sub).execute();
  });
  return sub;
}

/** An active session of the tester on the study. */
const activeSession = (organizationId: string, studyId: string, testerId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('sessions')
      .values({
        organization_id: organizationId,
        study_id: studyId,
        tester_id: testerId,
        status: 'active',
        started_at: NOW,
      })
      .execute(),
  );

const proposalsOf = (studyId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('proposals')
      .selectAll()
      .where('study_id', '=', studyId)
      .orderBy('match_score', 'desc')
      .execute(),
  );

// Each test targets countries no other test (nor the seed) uses, so the eligible pool is its own.
describe('matching: proposeTesters (db/repositories/matching.ts, activities/matching/)', function () {
  this.timeout(60_000);

  it('proposes exactly the eligible testers: active, quiz passed, not suspended, in country, age, device and language', async () => {
    const { organizationId } = await createBusiness('pro');
    const fits = await tester({ country: 'IS' });
    const fitsToo = await tester({
      country: 'MT',
      devices: ['mobile', 'tablet'],
      languages: ['en-MT', 'mt'],
      birth_year: 2000,
    });
    const excluded = [
      await tester({ status: 'pending' }),
      await tester({ status: 'suspended' }),
      await tester({}, 'suspended'),
      await tester({ quiz_passed: false }),
      await tester({ quiz_passed: null, quiz_score: null, quiz_completed_at: null }),
      await tester({ country: 'LU' }),
      await tester({ birth_year: 1950 }),
      await tester({ birth_year: 2010 }),
      await tester({ birth_year: null }),
      await tester({ devices: ['tablet'] }),
      await tester({ languages: ['de'] }),
    ];
    const studyId = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['IS', 'MT'],
      target_devices: ['desktop', 'mobile'],
      target_languages: ['en-GB'],
      target_age_min: 18,
      target_age_max: 60,
      tester_count: 20,
    });
    const outcome = await matching().proposeTesters({ studyId });
    const proposed = (await proposalsOf(studyId)).map((p) => p.tester_id);
    assert.deepEqual(new Set(proposed), new Set([fits, fitsToo]));
    assert.ok(excluded.every((id) => !proposed.includes(id)));
    // Ten testers asked for in each country, one in each: both segments are short, each gets a review.
    assert.deepEqual(outcome, {
      wanted: placesWanted(20),
      taken: 0,
      eligible: 2,
      proposed: 2,
      pendingReviews: 2,
    });
  });

  it('proposes up to the tester count plus the over-booking margin, best first, each with reasons, never twice', async () => {
    const { organizationId } = await createBusiness('pro');
    const ids = [];
    for (let i = 0; i < 8; i += 1) ids.push(await tester({ country: 'EE' }));
    const studyId = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['EE'],
      tester_count: 4,
    });
    const first = await matching().proposeTesters({ studyId });
    assert.equal(placesWanted(4), 5);
    assert.deepEqual(first, { wanted: 5, taken: 0, eligible: 8, proposed: 5, pendingReviews: 0 });
    const stored = await proposalsOf(studyId);
    assert.equal(stored.length, 5);
    for (const proposal of stored) {
      assert.equal(proposal.status, 'pending');
      assert.ok(Number(proposal.match_score) > 0 && Number(proposal.match_score) <= 1);
      assert.ok(proposal.match_reasons.length >= 5, proposal.match_reasons.join('; '));
    }
    // Places held: a second run (a retry, a second signal) proposes nobody more.
    assert.deepEqual(await matching().proposeTesters({ studyId }), {
      wanted: 5,
      taken: 5,
      eligible: 3,
      proposed: 0,
      pendingReviews: 0,
    });
    // A skipped proposal frees its place for the next candidate, never for the same tester.
    const skipped = stored[0]!;
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('proposals')
        .set({ status: 'skipped', skipped_at: NOW })
        .where('id', '=', skipped.id)
        .execute(),
    );
    assert.deepEqual(await matching().proposeTesters({ studyId }), {
      wanted: 5,
      taken: 4,
      eligible: 3,
      proposed: 1,
      pendingReviews: 0,
    });
    const after = await proposalsOf(studyId);
    assert.equal(after.length, 6);
    assert.equal(after.filter((p) => p.tester_id === skipped.tester_id).length, 1);
  });

  it('a study that is not active gets no proposals (paused mid-recruitment, completed)', async () => {
    const { organizationId } = await createBusiness('pro');
    await tester({ country: 'LT' });
    for (const status of ['paused', 'completed', 'draft'] as const) {
      const studyId = await insertStudy(organizationId, {
        status,
        target_countries: ['LT'],
        tester_count: 1,
      });
      assert.deepEqual(await matching().proposeTesters({ studyId }), {
        wanted: 0,
        taken: 0,
        eligible: 0,
        proposed: 0,
        pendingReviews: 0,
      });
      assert.deepEqual(await proposalsOf(studyId), []);
    }
  });

  it('ages count from the birth year at the limits; languages match by primary subtag in any case', async () => {
    const { organizationId } = await createBusiness('pro');
    const year = NOW.getUTCFullYear();
    const youngest = await tester({ country: 'SK', birth_year: year - 18 });
    const oldest = await tester({ country: 'SK', birth_year: year - 60 });
    const mixedCase = await tester({ country: 'SK', birth_year: 1990, languages: ['EN-us'] });
    await tester({ country: 'SK', birth_year: year - 17 });
    await tester({ country: 'SK', birth_year: year - 61 });
    const noYear = await tester({ country: 'SK', birth_year: null });
    const ranged = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['SK'],
      target_languages: ['en-GB'],
      target_age_min: 18,
      target_age_max: 60,
      tester_count: 20,
    });
    await matching().proposeTesters({ studyId: ranged });
    assert.deepEqual(
      new Set((await proposalsOf(ranged)).map((p) => p.tester_id)),
      new Set([youngest, oldest, mixedCase]),
    );
    // Without an age range, a profile without a birth year is eligible too.
    const open = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['SK'],
      tester_count: 20,
    });
    await matching().proposeTesters({ studyId: open });
    assert.ok((await proposalsOf(open)).some((p) => p.tester_id === noYear));
  });

  it('a tester with a session on the study holds a place and is not proposed', async () => {
    const { organizationId } = await createBusiness('pro');
    const withSession = await tester({ country: 'LV' });
    const other = await tester({ country: 'LV' });
    const studyId = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['LV'],
      tester_count: 2,
    });
    await activeSession(organizationId, studyId, withSession);
    // Three places (2 testers + 25 %): the session holds one, the other tester gets another.
    assert.deepEqual(await matching().proposeTesters({ studyId }), {
      wanted: 3,
      taken: 1,
      eligible: 1,
      proposed: 1,
      pendingReviews: 0,
    });
    assert.deepEqual(
      (await proposalsOf(studyId)).map((p) => p.tester_id),
      [other],
    );
  });

  it('a study whose sessions reach its tester count proposes nobody, over-booking margin or not', async () => {
    const { organizationId } = await createBusiness('pro');
    const withSession = await tester({ country: 'LV' });
    await tester({ country: 'LV' });
    const studyId = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['LV'],
      tester_count: 1,
    });
    await activeSession(organizationId, studyId, withSession);
    const outcome = await matching().proposeTesters({ studyId });
    assert.equal(outcome.proposed, 0);
    assert.deepEqual(await proposalsOf(studyId), []);
    // Full, it has no shortage to review either: Monaco (MC), where nobody tests, gets no review.
    const spread = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['LV', 'MC'],
      tester_count: 2,
    });
    await activeSession(organizationId, spread, withSession);
    await activeSession(organizationId, spread, await tester({ country: 'LV' }));
    assert.equal((await matching().proposeTesters({ studyId: spread })).pendingReviews, 0);
    const reviews = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('capacity_reviews').select('id').where('study_id', '=', spread).execute(),
    );
    assert.deepEqual(reviews, []);
  });

  it('an accepted offer whose session was cancelled frees its place; a pending proposal keeps one', async () => {
    const { organizationId } = await createBusiness('pro');
    const [cancelled, pending, newcomer] = [
      await tester({ country: 'RO' }),
      await tester({ country: 'RO' }),
      await tester({ country: 'RO' }),
    ];
    // Romania (RO): no other test recruits there. One tester plus the margin: two places, one
    // held by the pending proposal.
    const studyId = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['RO'],
      tester_count: 1,
    });
    await asSystem(testDatabase(), async (tx) => {
      const base = {
        organization_id: organizationId,
        study_id: studyId,
        match_score: '0.5',
        match_reasons: [],
      };
      await tx
        .insertInto('proposals')
        .values({ ...base, tester_id: pending })
        .execute();
      const accepted = await tx
        .insertInto('proposals')
        .values({ ...base, tester_id: cancelled, status: 'accepted', accepted_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow();
      const session = await tx
        .insertInto('sessions')
        .values({
          organization_id: organizationId,
          study_id: studyId,
          tester_id: cancelled,
          status: 'cancelled',
          started_at: NOW,
          cancelled_at: NOW,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('outreach_messages')
        .values({
          organization_id: organizationId,
          study_id: studyId,
          tester_id: cancelled,
          proposal_id: accepted.id,
          recipient_email: 'cancelled@example.com',
          channel: 'email',
          subject: 'Offer',
          body: 'Offer',
          status: 'approved',
          approved_at: NOW,
          scheduled_send_at: NOW,
          sent_at: NOW,
          offer_status: 'accepted',
          offer_expires_at: NOW,
          answered_at: NOW,
          session_id: session.id,
        })
        .execute();
    });
    const outcome = await matching().proposeTesters({ studyId });
    assert.deepEqual({ taken: outcome.taken, proposed: outcome.proposed }, { taken: 1, proposed: 1 });
    assert.ok((await proposalsOf(studyId)).some((p) => p.tester_id === newcomer));
  });

  it('a short segment gets one pending capacity review; rejected, its places go to the other country and the business is told once', async () => {
    const { organizationId } = await createBusiness('pro');
    // Hungary (HU) and Ireland (IE): no other test recruits there. Two testers asked for in each.
    const hungarians: string[] = [];
    for (let i = 0; i < 4; i += 1) hungarians.push(await tester({ country: 'HU' }));
    const irish = await tester({ country: 'IE' });
    const studyId = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['HU', 'IE'],
      target_age_min: 18,
      target_age_max: 60,
      tester_count: 4,
    });
    const reviewsOf = () =>
      asSystem(testDatabase(), (tx) =>
        tx.selectFrom('capacity_reviews').selectAll().where('study_id', '=', studyId).execute(),
      );
    // Ireland is short (one of two): its only tester is proposed all the same, and it gets a review.
    const first = await matching().proposeTesters({ studyId });
    assert.deepEqual(first, { wanted: 5, taken: 0, eligible: 5, proposed: 4, pendingReviews: 1 });
    const proposed = (await proposalsOf(studyId)).map((p) => p.tester_id);
    assert.ok(proposed.includes(irish));
    assert.equal(proposed.filter((id) => hungarians.includes(id)).length, 3);
    const [review] = await reviewsOf();
    assert.equal(review!.status, 'pending');
    assert.deepEqual(review!.segment, { country: 'IE', ageRange: { min: 18, max: 60 } });
    assert.equal(review!.requested_count, 2);
    assert.equal(review!.available_count, 1);
    // Pending: Ireland's missing place waits for the decision; a second run creates no second review.
    assert.equal((await matching().proposeTesters({ studyId })).proposed, 0);
    assert.equal((await reviewsOf()).length, 1);

    const notices = createCapacityNoticeActivities({ db: serviceDatabase(), now: () => NOW });
    assert.deepEqual(await notices.noticeCapacityRejections({ studyId }), []);
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('capacity_reviews')
        .set({ status: 'rejected', adjusted_count: 0, resolved_at: NOW })
        .where('id', '=', review!.id)
        .execute(),
    );
    // Rejected: Hungary is to hold all four; its last tester takes the free place.
    const after = await matching().proposeTesters({ studyId });
    assert.deepEqual(after, { wanted: 5, taken: 4, eligible: 1, proposed: 1, pendingReviews: 0 });
    assert.equal((await proposalsOf(studyId)).length, 5);
    assert.equal((await reviewsOf()).length, 1, 'Hungary holds enough: no review for it');

    const told = await notices.noticeCapacityRejections({ studyId });
    assert.equal(told.length, 1);
    const [mail] = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('notification_outbox').selectAll().where('id', '=', told[0]!).execute(),
    );
    assert.equal(mail!.channel, 'email');
    assert.equal(mail!.kind, 'capacity_rejected');
    assert.match(mail!.subject!, /No more testers in IE for "Study"/);
    assert.match(mail!.body, /asked for 2 testers in IE, ages 18 to 60, where 1 are available/);
    assert.deepEqual(await notices.noticeCapacityRejections({ studyId }), [], 'told once');
  });
});
