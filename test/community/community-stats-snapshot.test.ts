import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connectDatabase, type DatabaseHandle } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { dropDatabase, ensureDatabase, migrate } from '../../db/migrate.ts';
import { recordCommunityStatsSnapshot } from '../../db/repositories/community-stats.ts';
import type { Device } from '../../lib/domain.ts';
import { deviceShares, nextCommunityStatsRefresh } from '../../lib/community-stats.ts';
import { insertStudy } from '../auth/helpers.ts';

const AT = new Date('2030-06-03T12:00:00.000Z');
const DAY_MS = 86_400_000;
const daysBefore = (days: number) => new Date(AT.getTime() - days * DAY_MS);

// The statistics cover the whole database, so they are computed in one of their own, where every
// row is this file's: each figure is then known exactly.
describe('community statistics snapshot (db/repositories/community-stats)', () => {
  let url: string;
  let handle: DatabaseHandle;
  let organizationId: string;

  const system = <T>(work: Parameters<typeof asSystem<T>>[1]) => asSystem(handle.db, work);
  const snapshot = () => system((tx) => recordCommunityStatsSnapshot(tx, AT, nextCommunityStatsRefresh(AT)));

  async function addTesters(
    count: number,
    profile: { country: string | null; devices?: Device[] } | 'none',
  ): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const user = await system((tx) =>
        tx
          .insertInto('users')
          .values({ email: `tester-${randomUUID()}@example.com`, role: 'tester', display_name: 'Tester' })
          .returning('id')
          .executeTakeFirstOrThrow(),
      );
      if (profile !== 'none') {
        await system((tx) =>
          tx
            .insertInto('tester_profiles')
            .values({ user_id: user.id, country: profile.country, devices: profile.devices ?? ['desktop'] })
            .execute(),
        );
      }
      ids.push(user.id);
    }
    return ids;
  }

  const addStudy = (fields: { testerCount: number; currency: string; amount: number; devices: Device[] }) =>
    insertStudy(
      organizationId,
      {
        tester_count: fields.testerCount,
        target_devices: fields.devices,
        compensation_currency: fields.currency,
        compensation_amount: fields.amount,
        status: 'active',
      },
      handle.db,
    );

  /** A session that reaches `confirmed` through the state machine, its events (viewport widths) recorded first. */
  async function confirmedSession(
    studyId: string,
    testerId: string,
    options: { confirmedAt?: Date; rating?: number; viewportWidths?: number[] } = {},
  ): Promise<string> {
    const confirmedAt = options.confirmedAt ?? daysBefore(10);
    return system(async (tx) => {
      const session = await tx
        .insertInto('sessions')
        .values({
          study_id: studyId,
          organization_id: organizationId,
          tester_id: testerId,
          status: 'analyzed',
          started_at: new Date(confirmedAt.getTime() - 3_600_000),
          completed_at: new Date(confirmedAt.getTime() - 1_800_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [index, width] of (options.viewportWidths ?? []).entries()) {
        await tx
          .insertInto('session_events')
          .values({
            session_id: session.id,
            event_type: 'click',
            target_selector: 'button',
            occurred_at: new Date(confirmedAt.getTime() - 3_000_000 + index * 1000),
            viewport_width: width,
            viewport_height: 700,
          })
          .execute();
      }
      await tx
        .updateTable('sessions')
        .set({
          status: 'confirmed',
          confirmed_at: confirmedAt,
          ...(options.rating ? { business_rating: options.rating, business_rated_at: confirmedAt } : {}),
        })
        .where('id', '=', session.id)
        .execute();
      return session.id;
    });
  }

  const deviceOf = async (sessionId: string) =>
    (
      await system((tx) =>
        tx.selectFrom('sessions').select('device').where('id', '=', sessionId).executeTakeFirstOrThrow(),
      )
    ).device;

  before(async () => {
    const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    base.pathname = `${base.pathname}_community`;
    url = base.toString();
    await dropDatabase(url);
    await ensureDatabase(url);
    await migrate(url);
    handle = connectDatabase(url, { poolSize: 2 });
    const organization = await system((tx) =>
      tx
        .insertInto('organizations')
        .values({ name: 'Community org', plan: 'free' })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    organizationId = organization.id;
  });
  after(async () => {
    await handle.close();
    await dropDatabase(url);
  });

  it('answers zeros and nulls for a community with no testers yet', async () => {
    const row = await snapshot();
    assert.equal(row.total_testers, 0);
    assert.equal(row.active_testers, 0);
    assert.equal(row.total_studies_completed, 0);
    assert.equal(row.total_sessions_completed, 0);
    assert.equal(row.avg_session_rating, null);
    assert.deepEqual(row.top_countries, []);
    assert.deepEqual(row.device_breakdown, { desktop: 0, mobile: 0, tablet: 0 });
    assert.equal(row.avg_compensation_currency, null);
    assert.equal(row.avg_compensation_amount, null);
    assert.equal(row.cached_at.toISOString(), AT.toISOString());
    assert.equal(row.next_refresh_at.toISOString(), '2030-06-10T03:00:00.000Z');
  });

  it('counts every tester account, lists countries of at least 10 testers only, most first', async () => {
    await addTesters(12, { country: 'DE' });
    await addTesters(10, { country: 'GB' });
    await addTesters(10, { country: 'FR' });
    await addTesters(9, { country: 'IT' });
    await addTesters(2, { country: null });
    await addTesters(1, 'none');
    // Businesses and admins are not testers.
    await system((tx) =>
      tx
        .insertInto('users')
        .values([
          { email: `biz-${randomUUID()}@example.com`, role: 'business' },
          { email: `admin-${randomUUID()}@example.com`, role: 'admin' },
        ])
        .execute(),
    );
    const row = await snapshot();
    assert.equal(row.total_testers, 44);
    // Italy's 9 testers would fit in the top 5 but are too few to be shown.
    assert.deepEqual(row.top_countries, [
      { country: 'DE', testerCount: 12 },
      { country: 'FR', testerCount: 10 },
      { country: 'GB', testerCount: 10 },
    ]);
    await addTesters(1, { country: 'IT' });
    await addTesters(11, { country: 'US' });
    await addTesters(15, { country: 'ES' });
    assert.deepEqual((await snapshot()).top_countries, [
      { country: 'ES', testerCount: 15 },
      { country: 'DE', testerCount: 12 },
      { country: 'US', testerCount: 11 },
      { country: 'FR', testerCount: 10 },
      { country: 'GB', testerCount: 10 },
    ]);
  });

  it('derives sessions, studies, ratings, activity, devices and compensation from confirmed sessions', async () => {
    const [phoneUser, desktopOnly, twoDevices, recent, unfinished] = await addTesters(5, {
      country: 'NL',
      devices: ['desktop', 'mobile'],
    });
    const euroPair = await addStudy({
      testerCount: 2,
      currency: 'EUR',
      amount: 10,
      devices: ['desktop', 'mobile'],
    });
    const euroTrio = await addStudy({ testerCount: 3, currency: 'EUR', amount: 20, devices: ['desktop'] });
    const dollarSolo = await addStudy({
      testerCount: 1,
      currency: 'USD',
      amount: 50,
      devices: ['desktop', 'mobile', 'tablet'],
    });

    // Events report a phone-sized viewport (median 390 of 390, 390, 1280).
    const phone = await confirmedSession(euroPair, phoneUser!, {
      rating: 5,
      viewportWidths: [390, 390, 1280],
    });
    // No events: the tester has two devices, both targeted, so the device is unknown.
    const unknown = await confirmedSession(euroPair, twoDevices!, { rating: 4 });
    // No events: of the tester's devices, the study targets only the desktop.
    const desktop = await confirmedSession(euroTrio, desktopOnly!, { confirmedAt: daysBefore(100) });
    const tablet = await confirmedSession(dollarSolo, recent!, {
      rating: 2,
      confirmedAt: daysBefore(89),
      viewportWidths: [800],
    });
    // The trio's other sessions never reach confirmed.
    await system((tx) =>
      tx
        .insertInto('sessions')
        .values([
          { study_id: euroTrio, organization_id: organizationId, tester_id: unfinished!, status: 'analyzed' },
          {
            study_id: euroTrio,
            organization_id: organizationId,
            tester_id: phoneUser!,
            status: 'cancelled',
            cancelled_at: daysBefore(1),
          },
        ])
        .execute(),
    );

    assert.equal(await deviceOf(phone), 'mobile');
    assert.equal(await deviceOf(unknown), null);
    assert.equal(await deviceOf(desktop), 'desktop');
    assert.equal(await deviceOf(tablet), 'tablet');

    const few = await snapshot();
    assert.equal(few.total_sessions_completed, 4);
    // The pair (2 of 2) and the solo study (1 of 1); the trio has 1 of 3.
    assert.equal(few.total_studies_completed, 2);
    // 100 days ago is outside the 90-day window; 89 days is inside.
    assert.equal(few.active_testers, 3);
    // Three ratings, three known devices, three sessions in euros: each too few to show.
    assert.equal(few.avg_session_rating, null);
    assert.deepEqual(few.device_breakdown, { desktop: 0, mobile: 0, tablet: 0 });
    assert.equal(few.avg_compensation_currency, null);
    assert.equal(few.avg_compensation_amount, null);

    // Eleven more, in a study for phones only: each of its sessions ran on a phone.
    const eleven = await addTesters(11, { country: 'NL', devices: ['desktop', 'mobile'] });
    const phoneStudy = await addStudy({ testerCount: 11, currency: 'EUR', amount: 20, devices: ['mobile'] });
    for (const tester of eleven) await confirmedSession(phoneStudy, tester, { rating: 5 });

    const row = await snapshot();
    assert.equal(row.total_sessions_completed, 15);
    assert.equal(row.total_studies_completed, 3);
    assert.equal(row.active_testers, 14);
    // (5 + 4 + 2 + 11 x 5) / 14 rated sessions.
    assert.equal(row.avg_session_rating, '4.71');
    // 14 sessions with a known device: 1 desktop, 12 phones, 1 tablet.
    assert.deepEqual(row.device_breakdown, { desktop: 0.0714, mobile: 0.8572, tablet: 0.0714 });
    // 14 sessions in euros (10, 10, 20 and 11 x 20) outnumber the one in dollars.
    assert.equal(row.avg_compensation_currency, 'EUR');
    assert.equal(row.avg_compensation_amount, '18.57');
  });

  it('records the device of a session inserted already confirmed, as fixtures and the seed do', async () => {
    const [tester] = await addTesters(1, { country: 'NL', devices: ['tablet'] });
    const study = await addStudy({
      testerCount: 1,
      currency: 'EUR',
      amount: 5,
      devices: ['tablet', 'desktop'],
    });
    const session = await system((tx) =>
      tx
        .insertInto('sessions')
        .values({
          study_id: study,
          organization_id: organizationId,
          tester_id: tester!,
          status: 'confirmed',
          confirmed_at: AT,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    assert.equal(await deviceOf(session.id), 'tablet');
  });
});

describe('community statistics rules (lib/community-stats)', () => {
  it('refreshes on Mondays at 03:00 UTC, every 7 days, always after the given moment', () => {
    assert.equal(
      nextCommunityStatsRefresh(new Date('2026-11-24T23:00:00Z')).toISOString(),
      '2026-11-30T03:00:00.000Z',
    );
    assert.equal(
      nextCommunityStatsRefresh(new Date('2026-11-30T02:59:59Z')).toISOString(),
      '2026-11-30T03:00:00.000Z',
    );
    assert.equal(
      nextCommunityStatsRefresh(new Date('2026-11-30T03:00:00Z')).toISOString(),
      '2026-12-07T03:00:00.000Z',
    );
  });

  it('gives device shares to four decimals that add up to exactly one', () => {
    assert.deepEqual(deviceShares({ desktop: 7, mobile: 13, tablet: 1 }), {
      desktop: 0.3333,
      mobile: 0.6191,
      tablet: 0.0476,
    });
    assert.deepEqual(deviceShares({ desktop: 2, mobile: 1, tablet: 0 }), {
      desktop: 0.6667,
      mobile: 0.3333,
      tablet: 0,
    });
    assert.deepEqual(deviceShares({ desktop: 0, mobile: 0, tablet: 0 }), {
      desktop: 0,
      mobile: 0,
      tablet: 0,
    });
    for (const counts of [
      { desktop: 7, mobile: 13, tablet: 1 },
      { desktop: 1, mobile: 1, tablet: 1 },
      { desktop: 999_999, mobile: 1, tablet: 0 },
    ]) {
      const shares = deviceShares(counts);
      const tenThousandths = Object.values(shares).map((share) => Math.round(share * 10_000));
      assert.equal(
        tenThousandths.reduce((a, b) => a + b, 0),
        10_000,
        JSON.stringify(shares),
      );
    }
  });
});
