import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem, asUser } from '../../db/doors.ts';
import { listTesters } from '../../db/repositories/tester-listing.ts';
import type { TesterStatus } from '../../lib/domain.ts';
import { insertStudy } from '../auth/helpers.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';

interface TesterRecord {
  testerId: string;
  email: string;
  displayName: string | null;
  country: string;
  status: TesterStatus;
  completedSessions: number;
  avgRating: number | null;
  joinedAt: string;
}

/** A tester with a profile and sessions of the given ratings (null: confirmed without a rating). */
async function testerWith(
  business: BusinessFixture,
  profile: { country: string; status: TesterStatus },
  confirmedRatings: readonly (number | null)[],
  otherSessions: readonly ('active' | 'completed')[] = [],
): Promise<string> {
  const tester = await createTester();
  const studies = await Promise.all(
    [...confirmedRatings, ...otherSessions].map(() => insertStudy(business.organizationId)),
  );
  await asSystem(testDatabase(), async (tx) => {
    await tx
      .insertInto('tester_profiles')
      .values({ user_id: tester.sub, devices: ['desktop'], ...profile })
      .execute();
    const base = { organization_id: business.organizationId, tester_id: tester.sub };
    for (const [index, rating] of confirmedRatings.entries()) {
      await tx
        .insertInto('sessions')
        .values({
          ...base,
          study_id: studies[index]!,
          status: 'confirmed',
          confirmed_at: new Date(),
          // The businesses' ratings make the average; the tester's own rating does not count.
          rating: 1,
          business_rating: rating,
          business_rated_at: rating === null ? null : new Date(),
        })
        .execute();
    }
    for (const [index, status] of otherSessions.entries()) {
      const completed = status === 'completed' ? { completed_at: new Date() } : {};
      await tx
        .insertInto('sessions')
        .values({ ...base, study_id: studies[confirmedRatings.length + index]!, status, ...completed })
        .execute();
    }
  });
  return tester.sub;
}

describe('GET /api/admin/testers', () => {
  let api: TestApi;
  let adminJwt: string;
  let business: BusinessFixture;
  // Countries no other suite uses, so filters and totals are exact whatever else the run created.
  const [HERE, THERE] = ['TV', 'NR'];
  let active: string;
  let pending: string;
  let suspended: string;
  let elsewhere: string;

  before(async () => {
    api = await startTestApi({ worker: false });
    adminJwt = await sessionToken({ sub: randomUUID(), role: 'admin', organization_id: null });
    business = await createBusiness();
    // Created one after another: the list is newest first.
    active = await testerWith(
      business,
      { country: HERE, status: 'active' },
      [5, 4, 4],
      ['active', 'completed'],
    );
    pending = await testerWith(business, { country: HERE, status: 'pending' }, []);
    suspended = await testerWith(business, { country: HERE, status: 'suspended' }, [2]);
    elsewhere = await testerWith(business, { country: THERE, status: 'active' }, [null, 3]);
  });
  after(() => api.stop());

  const list = (query: string, token = adminJwt) =>
    api.request('GET', `/api/admin/testers?${query}`, { token });
  const ids = (response: Awaited<ReturnType<typeof list>>) =>
    (response.body.data as TesterRecord[]).map((record) => record.testerId);

  it('lists each tester with confirmed sessions counted, their mean rating and when they joined', async () => {
    const response = await list(`country=${HERE}`);
    assert.equal(response.status, 200, response.text);
    const records = response.body.data as TesterRecord[];
    assert.deepEqual(ids(response), [suspended, pending, active]);
    const first = records.find((record) => record.testerId === active)!;
    const user = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('users')
        .select(['email', 'created_at'])
        .where('id', '=', active)
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual(first, {
      testerId: active,
      email: user.email,
      displayName: 'Tester',
      country: HERE,
      status: 'active',
      completedSessions: 3,
      avgRating: 4.33,
      joinedAt: user.created_at.toISOString(),
    });
    assert.equal(records.find((record) => record.testerId === pending)!.avgRating, null);
    assert.equal(records.find((record) => record.testerId === pending)!.completedSessions, 0);
  });

  it('filters by status, country and minSessions', async () => {
    assert.deepEqual(ids(await list(`country=${HERE}&status=active`)), [active]);
    assert.deepEqual(ids(await list(`country=${HERE}&status=suspended`)), [suspended]);
    assert.deepEqual(ids(await list(`country=${HERE}&minSessions=1`)), [suspended, active]);
    assert.deepEqual(ids(await list(`country=${HERE}&minSessions=3`)), [active]);
    assert.deepEqual(ids(await list(`country=${HERE}&minSessions=4`)), []);
    const there = await list(`country=${THERE}`);
    assert.deepEqual(ids(there), [elsewhere]);
    assert.equal((there.body.data as TesterRecord[])[0]!.avgRating, 3, 'unrated sessions count, not rate');
    assert.equal((there.body.data as TesterRecord[])[0]!.completedSessions, 2);
  });

  it('pages with page and limit (default 20, max 100) and reports {page, limit, total}', async () => {
    const first = await list(`country=${HERE}&limit=2`);
    assert.deepEqual(ids(first), [suspended, pending]);
    assert.deepEqual(first.body.metadata, { page: 1, limit: 2, total: 3 });
    const second = await list(`country=${HERE}&limit=2&page=2`);
    assert.deepEqual(ids(second), [active]);
    assert.deepEqual(second.body.metadata, { page: 2, limit: 2, total: 3 });
    const beyond = await list(`country=${HERE}&limit=2&page=3`);
    assert.deepEqual(beyond.body.data, []);
    assert.deepEqual(beyond.body.metadata, { page: 3, limit: 2, total: 3 });
    assert.deepEqual((await list(`country=${HERE}&minSessions=1`)).body.metadata, {
      page: 1,
      limit: 20,
      total: 2,
    });
    assert.equal((await list('limit=100')).status, 200);
  });

  it('refuses bad filters: 422 naming the parameter, 400 for a value that is not a number', async () => {
    for (const [query, name] of [
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      ['status=banned', 'status'],
      ['country=XX', 'country'],
      ['country=gb', 'country'],
      ['minSessions=-1', 'minSessions'],
    ] as const) {
      const response = await list(query);
      assert.equal(response.status, 422, query);
      assert.match(response.body.error!, new RegExp(`^${name}:`));
    }
    assert.equal((await list('minSessions=many')).status, 400);
  });

  it('is for admins only: business and tester JWTs and business API tokens of every scope get 403', async () => {
    const ownerJwt = await sessionToken(business.claims);
    const testerJwt = await sessionToken(await createTester());
    assert.equal((await list('', ownerJwt)).status, 403);
    assert.equal((await list('', testerJwt)).status, 403);
    for (const scope of ['read', 'read_write', 'admin']) {
      const issued = await api.request('POST', '/api/auth/tokens', {
        token: ownerJwt,
        body: { name: `${scope} token`, scope },
      });
      const { token } = issued.body.data as { token: string };
      assert.equal((await list('', token)).status, 403, `${scope} API token`);
    }
    assert.equal((await api.request('GET', '/api/admin/testers')).status, 401);
  });

  it('reads through the user door: without admin claims row-level security shows no tester', async () => {
    const asBusiness = await asUser(testDatabase(), business.claims, (tx) =>
      listTesters(tx, { country: HERE, limit: 100, offset: 0 }),
    );
    assert.deepEqual(asBusiness, { rows: [], total: 0 });
  });
});
