import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness, createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { qualifiedTester } from '../outreach/fixtures.ts';
import { PageClient, textOfId } from './page-client.ts';
import { studyWithProposals } from './study-fixtures.ts';

const reviewRow = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('capacity_reviews')
      .select(['status', 'adjusted_count', 'note'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  );
const testerStatus = async (id: string) =>
  (
    await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('tester_profiles').select('status').where('user_id', '=', id).executeTakeFirstOrThrow(),
    )
  ).status;

// Paraguay (PY): no other test recruits there.
describe("the admins' pages: /admin/capacity-reviews and /admin/testers", function () {
  this.timeout(120_000);
  let api: TestApi;
  let admin: PageClient;

  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    admin = new PageClient(api.url);
    admin.useSession(await sessionToken(await createAdmin()));
  });
  after(() => api.stop());

  it("are the admins': a business or a tester gets the 404 page", async () => {
    for (const claims of [(await createBusiness()).claims, await createTester()]) {
      const client = new PageClient(api.url);
      client.useSession(await sessionToken(claims));
      assert.equal((await client.get('/admin/capacity-reviews')).status, 404);
      assert.equal((await client.get('/admin/testers')).status, 404);
      await client.get('/dashboard');
      const tester = { sub: await qualifiedTester('UZ') };
      const posted = await client.post(`/admin/testers/${tester.sub}`, {
        status: 'suspended',
        list: 'active',
        [`reason-${tester.sub}`]: 'x',
      });
      assert.equal(posted.status, 404);
      assert.equal(await testerStatus(tester.sub), 'active', 'nothing changed');
    }
  });

  it('decides a capacity review: a count above the request is refused at its field, an approval is recorded', async () => {
    const business = await sessionToken((await createBusiness('pro')).claims);
    const { jobId } = await studyWithProposals(api, business, 'PY', 1, 3);
    let reviewId = '';
    await waitFor(async () => {
      const [row] = await asSystem(testDatabase(), (tx) =>
        tx.selectFrom('capacity_reviews').select('id').where('study_id', '=', jobId).execute(),
      );
      reviewId = row?.id ?? '';
      return reviewId !== '';
    });
    const page = await admin.get('/admin/capacity-reviews');
    assert.equal(page.status, 200);
    assert.ok(page.html.includes(`action="/admin/capacity-reviews/${reviewId}"`));
    assert.match(page.html, /Review \d+: PY/);

    const missing = await admin.post(`/admin/capacity-reviews/${reviewId}`, {});
    assert.equal(missing.status, 422);
    assert.equal(
      textOfId(missing.html, `field-decision-${reviewId}-error`),
      'Error: Must be approved or rejected',
    );
    const tooMany = await admin.post(`/admin/capacity-reviews/${reviewId}`, {
      [`decision-${reviewId}`]: 'approved',
      [`adjustedCount-${reviewId}`]: '9',
      [`note-${reviewId}`]: 'Recruit locally',
    });
    assert.equal(tooMany.status, 422);
    assert.equal(
      textOfId(tooMany.html, `field-adjustedCount-${reviewId}-error`),
      'Error: Must be at most the requested count (3)',
    );
    assert.match(tooMany.html, /Recruit locally<\/textarea>/);
    assert.equal((await reviewRow(reviewId)).status, 'pending');

    const decided = await admin.post(`/admin/capacity-reviews/${reviewId}`, {
      [`decision-${reviewId}`]: 'approved',
      [`adjustedCount-${reviewId}`]: '1',
      [`note-${reviewId}`]: 'Recruit locally',
    });
    assert.equal(decided.status, 303);
    assert.deepEqual(await reviewRow(reviewId), {
      status: 'approved',
      adjusted_count: 1,
      note: 'Recruit locally',
    });
    const after = await admin.get(decided.location!);
    assert.match(after.html, /Decision recorded/);
    assert.ok(
      !after.html.includes(`action="/admin/capacity-reviews/${reviewId}"`),
      'a decided review is gone',
    );
    const again = await admin.post(`/admin/capacity-reviews/${reviewId}`, {
      [`decision-${reviewId}`]: 'rejected',
    });
    assert.equal(again.status, 409);
    assert.match(again.html, /must be pending to decide \(it is approved\)/);
  });

  it('approves a pending tester with a reason (a reason is required), then offers to suspend them', async () => {
    const tester = await createTester();
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('tester_profiles')
        .values({
          user_id: tester.sub,
          country: 'PY',
          devices: ['desktop'],
          languages: ['en'],
          status: 'pending',
        })
        .execute(),
    );
    const pending = await admin.get('/admin/testers');
    assert.ok(pending.html.includes(`action="/admin/testers/${tester.sub}"`));
    assert.match(pending.html, /aria-current="page">Pending/);
    const noReason = await admin.post(`/admin/testers/${tester.sub}`, { status: 'active', list: 'pending' });
    assert.equal(noReason.status, 422);
    assert.equal(textOfId(noReason.html, `field-reason-${tester.sub}-error`), 'Error: Must not be empty');
    assert.equal(await testerStatus(tester.sub), 'pending');
    const approved = await admin.post(`/admin/testers/${tester.sub}`, {
      status: 'active',
      list: 'pending',
      [`reason-${tester.sub}`]: 'Known accessibility tester',
    });
    assert.equal(approved.status, 303);
    assert.equal(approved.location, '/admin/testers?status=pending&done=1');
    assert.equal(await testerStatus(tester.sub), 'active');
    const active = await admin.get('/admin/testers?status=active');
    assert.ok(
      active.html.includes(
        `Suspend ${(await asSystem(testDatabase(), (tx) => tx.selectFrom('users').select('email').where('id', '=', tester.sub).executeTakeFirstOrThrow())).email}`,
      ),
    );
  });
});
