import type { TableCells } from './matrix.ts';
import { ADMIN, TESTER } from './tables-core.ts';
import { unique, uniqueNumber } from './unique.ts';

export const TESTER_TABLES: readonly TableCells[] = [
  {
    table: 'quizzes',
    rule: 'quizzes: admins only, they hold the correct answers',
    rows: [
      { key: (f) => ({ id: f.quiz }), touch: 'passing_score', select: ADMIN, update: ADMIN, delete: ADMIN },
    ],
    insert: {
      allowed: ADMIN,
      run: (tx) => tx.insertInto('quizzes').values({ version: uniqueNumber(), passing_score: 60 }).execute(),
    },
  },
  {
    table: 'quiz_questions',
    rule: 'quiz questions: admins only, they hold the correct answers',
    rows: [{ key: (f) => ({ id: f.question }), touch: 'text', select: ADMIN, update: ADMIN, delete: ADMIN }],
    insert: {
      allowed: ADMIN,
      run: (tx, f) =>
        tx
          .insertInto('quiz_questions')
          .values({
            quiz_id: f.quiz,
            position: 2,
            text: 'Which key moves focus?',
            options: JSON.stringify([
              { id: 'a', text: 'Tab' },
              { id: 'b', text: 'Home' },
            ]),
            correct_option_id: 'a',
          })
          .execute(),
    },
  },
  {
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
      run: (tx, f) =>
        tx
          .insertInto('tester_profiles')
          .values({ user_id: f.actors.testerWithout.sub, country: 'FR', devices: ['mobile'] })
          .execute(),
    },
  },
  {
    table: 'payout_accounts',
    rule: 'payout accounts: read by their tester, written by the system and admins',
    rows: [
      {
        key: (f) => ({ id: f.payoutAccount }),
        touch: 'status',
        select: TESTER,
        update: ADMIN,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: ADMIN,
      run: (tx, f) =>
        tx
          .insertInto('payout_accounts')
          .values({ tester_id: f.actors.testerWithout.sub, provider_account_id: unique('acct') })
          .execute(),
    },
  },
];
