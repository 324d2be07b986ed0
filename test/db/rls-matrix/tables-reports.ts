import { tableCells, type TableCells } from './matrix.ts';
import { ADMIN, ORG_AND_TESTER, OWNER_ORG, systemRow } from './tables-core.ts';
import { unique } from './unique.ts';

export const REPORT_TABLES: readonly TableCells[] = [
  tableCells({
    table: 'reports',
    rule: 'reports: readable by the tester they belong to and by the organization owning the study; written by the system',
    rows: [
      systemRow({
        key: (f) => ({ id: f.report }),
        touch: 'content',
        select: ORG_AND_TESTER,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          organization_id: f.organizationA,
          study_id: f.study,
          session_id: f.bystanderSession,
          tester_id: f.bystander,
          tone_profile: 'moderate',
          overall_score: '60',
          content: { findings: [] },
        }),
    },
  }),
  tableCells({
    table: 'study_reports',
    rule: 'study reports: readable by the organization owning the study; written by the system',
    rows: [
      systemRow({
        key: (f) => ({ id: f.studyReport }),
        touch: 'content',
        select: OWNER_ORG,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({ organization_id: f.organizationA, study_id: f.study, session_count: 0, content: {} }),
    },
  }),
  tableCells({
    table: 'proposals',
    rule: 'proposals: created by matching, read and decided by the study organization',
    rows: [
      {
        key: (f) => ({ id: f.proposal }),
        touch: 'match_reasons',
        select: OWNER_ORG,
        update: OWNER_ORG,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          organization_id: f.organizationA,
          study_id: f.study,
          tester_id: f.bystander,
          match_score: '0.5',
        }),
    },
  }),
  tableCells({
    table: 'outreach_messages',
    rule: 'outreach messages: drafted and reviewed by the study organization; its tester reads one once it went out as an offer (not one withdrawn unsent)',
    rows: [
      {
        key: (f) => ({ id: f.outreachMessage }),
        touch: 'body',
        select: OWNER_ORG,
        update: OWNER_ORG,
        delete: ADMIN,
      },
      {
        key: (f) => ({ id: f.sentOffer }),
        touch: 'body',
        select: ORG_AND_TESTER,
        update: OWNER_ORG,
        delete: ADMIN,
      },
      {
        key: (f) => ({ id: f.unsentOffer }),
        touch: 'body',
        select: OWNER_ORG,
        update: OWNER_ORG,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f) =>
        into.values({
          organization_id: f.organizationA,
          study_id: f.study,
          tester_id: f.bystander,
          recipient_email: 'bystander@example.com',
          channel: 'messaging',
          body: 'A study for you',
        }),
    },
  }),
  tableCells({
    table: 'capacity_reviews',
    rule: 'capacity reviews: decided by admins alone',
    rows: [systemRow({ key: (f) => ({ id: f.capacityReview }), touch: 'note', select: ADMIN })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          study_id: f.study,
          requested_count: 3,
          available_count: 1,
          segment: { country: 'FR', ageRange: null },
        }),
    },
  }),
  tableCells({
    table: 'payments',
    rule: 'payments: readable by the tester and the paying organization; written by the system',
    rows: [
      systemRow({
        key: (f) => ({ id: f.payment }),
        touch: 'attempts',
        select: ORG_AND_TESTER,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          organization_id: f.organizationA,
          study_id: f.study,
          session_id: f.liveSession,
          tester_id: f.actors.testerWith.sub,
          amount: '25.00',
          currency: 'EUR',
        }),
    },
  }),
  tableCells({
    table: 'checkout_sessions',
    rule: 'checkout sessions: readable by the paying organization; written by the system',
    rows: [
      systemRow({
        key: (f) => ({ id: f.checkoutSession }),
        touch: 'url',
        select: OWNER_ORG,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          id: unique('cs'),
          provider: 'stripe',
          organization_id: f.organizationA,
          study_id: f.study,
          amount_total: 1000,
          currency: 'EUR',
          url: 'https://checkout.example/cs',
          expires_at: '2030-01-02T00:00:00Z',
        }),
    },
  }),
  tableCells({
    table: 'provider_events',
    rule: 'provider events: admins only',
    rows: [systemRow({ key: (f) => ({ id: f.providerEvent }), touch: 'type', select: ADMIN })],
    insert: {
      allowed: ADMIN,
      row: (into) =>
        into.values({ id: unique('evt'), provider: 'payments', type: 'payout.paid', payload: {} }),
    },
  }),
  tableCells({
    table: 'review_call_bookings',
    rule: 'review call bookings: readable by the booking organization; written by the scheduling webhook',
    rows: [
      systemRow({
        key: (f) => ({ id: f.booking }),
        touch: 'invitee_name',
        select: OWNER_ORG,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          organization_id: f.organizationA,
          provider_booking_id: unique('booking'),
          invitee_email: 'owner@example.com',
          starts_at: '2030-02-02T10:00:00Z',
          ends_at: '2030-02-02T10:30:00Z',
        }),
    },
  }),
];
