import { tableCells, type TableCells } from './matrix.ts';
import { ADMIN, systemRow, TESTER } from './tables-core.ts';
import { unique, uniqueNumber } from './unique.ts';

export const TESTER_TABLES: readonly TableCells[] = [
  tableCells({
    table: 'quizzes',
    rule: 'quizzes: admins only, they hold the correct answers',
    rows: [systemRow({ key: (f) => ({ id: f.quiz }), touch: 'passing_score', select: ADMIN })],
    insert: {
      allowed: ADMIN,
      row: (into) => into.values({ version: uniqueNumber(), passing_score: 60 }),
    },
  }),
  tableCells({
    table: 'quiz_questions',
    rule: 'quiz questions: admins only, they hold the correct answers',
    rows: [systemRow({ key: (f) => ({ id: f.question }), touch: 'text', select: ADMIN })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          quiz_id: f.quiz,
          position: 2,
          text: 'Which key moves focus?',
          options: JSON.stringify([
            { id: 'a', text: 'Tab' },
            { id: 'b', text: 'Home' },
          ]),
          correct_option_id: 'a',
        }),
    },
  }),
  tableCells({
    table: 'quiz_attempts',
    rule: 'quiz attempts: scored by the system, read by their tester and admins',
    rows: [systemRow({ key: (f) => ({ id: f.quizAttempt }), touch: 'score', select: TESTER })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          tester_id: f.actors.testerWith.sub,
          quiz_id: f.quiz,
          quiz_version: 1,
          answers: '[]',
          score: 40,
          passed: false,
        }),
    },
  }),
  tableCells({
    table: 'tester_status_changes',
    rule: "tester status changes: admins' audit trail, admins only",
    rows: [systemRow({ key: (f) => ({ id: f.statusChange }), touch: 'reason', select: ADMIN })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          tester_id: f.actors.testerWith.sub,
          from_status: 'active',
          to_status: 'suspended',
          reason: 'No-shows',
        }),
    },
  }),
  tableCells({
    table: 'tester_profiles',
    rule: 'tester profiles: a tester creates (pending), sees and edits their own; businesses never read them',
    rows: [
      {
        key: (f) => ({ user_id: f.testerProfile }),
        touch: 'country',
        select: TESTER,
        update: TESTER,
        delete: ADMIN,
      },
    ],
    insert: {
      // The fresh profile is the tester-without-a-session's own, created pending.
      allowed: ['testerWithout', 'admin'],
      row: (into, f) =>
        into.values({ user_id: f.actors.testerWithout.sub, country: 'FR', devices: ['mobile'] }),
    },
  }),
  tableCells({
    table: 'payout_accounts',
    rule: 'payout accounts: read by their tester, written by the system and admins',
    rows: [
      systemRow({
        key: (f) => ({ id: f.payoutAccount }),
        touch: 'status',
        select: TESTER,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({ tester_id: f.actors.testerWithout.sub, provider_account_id: unique('acct') }),
    },
  }),
];
