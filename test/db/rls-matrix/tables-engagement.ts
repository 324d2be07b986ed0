import { tableCells, type TableCells } from './matrix.ts';
import { ADMIN, EVERYONE, systemRow, TESTER } from './tables-core.ts';
import { unique, uniqueNumber } from './unique.ts';

export const ENGAGEMENT_TABLES: readonly TableCells[] = [
  tableCells({
    table: 'badges',
    rule: 'badges: the catalogue is public, written by admins',
    rows: [systemRow({ key: (f) => ({ id: f.badge }), touch: 'name', select: EVERYONE })],
    insert: {
      allowed: ADMIN,
      row: (into) =>
        into.values({
          code: unique('badge').replaceAll('-', '_'),
          name: 'Streak',
          description: 'Three sessions in a row',
          icon_url: 'https://example.com/streak.svg',
          threshold_points: uniqueNumber(),
        }),
    },
  }),
  tableCells({
    table: 'awarded_badges',
    rule: 'awarded badges: a tester sees only their own; awarded by the system',
    rows: [
      systemRow({
        key: (f) => ({ tester_id: f.actors.testerWith.sub, badge_id: f.badge }),
        touch: 'awarded_at',
        select: TESTER,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) => into.values({ tester_id: f.bystander, badge_id: f.badge }),
    },
  }),
  tableCells({
    table: 'point_ledger',
    rule: 'point ledger: a tester sees only their own points; paid by the system',
    rows: [systemRow({ key: (f) => ({ id: f.pointEntry }), touch: 'note', select: TESTER })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          tester_id: f.actors.testerWith.sub,
          session_id: f.confirmedSession,
          signal: 'on_time',
          points: 10,
        }),
    },
  }),
  tableCells({
    table: 'gamification_evaluations',
    rule: 'gamification evaluations: a tester sees only their own; written by the system',
    rows: [
      systemRow({
        key: (f) => ({ session_id: f.confirmedSession }),
        touch: 'points_awarded',
        select: TESTER,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          session_id: f.liveSession,
          tester_id: f.actors.testerWith.sub,
          points_awarded: 0,
          result: '{}',
        }),
    },
  }),
  tableCells({
    table: 'community_stats_snapshots',
    rule: 'community statistics: public, written by the system',
    rows: [
      systemRow({
        key: (f) => ({ id: f.statsSnapshot }),
        touch: 'total_testers',
        select: EVERYONE,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into) =>
        into.values({
          total_testers: 1,
          active_testers: 1,
          total_studies_completed: 0,
          total_sessions_completed: 0,
          cached_at: '2030-01-08T00:00:00Z',
          next_refresh_at: '2030-01-15T00:00:00Z',
        }),
    },
  }),
  tableCells({
    table: 'notification_outbox',
    rule: 'notification outbox: internal, admins only',
    rows: [
      systemRow({
        key: (f) => ({ id: f.outboxMessage }),
        touch: 'attempts',
        select: ADMIN,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into) =>
        into.values({ channel: 'messaging', recipient: '12345', kind: 'offer', body: 'A study for you' }),
    },
  }),
];
