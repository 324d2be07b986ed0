import assert from 'node:assert/strict';
import { asSystem, type Tx } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { studyValues } from './rls-matrix/fixtures.ts';
import { email, unique } from './rls-matrix/unique.ts';

// Bounds docs/decisions/data-model.md promises ("Bounds in the database"), held by the database itself (db/migrations/0015_data_hardening.sql):
// even the system door, which bypasses row-level security, cannot store data outside them.

const CHECK_VIOLATION = { code: '23514' };
const FOREIGN_KEY_VIOLATION = { code: '23503' };

interface Parents {
  readonly organization: string;
  readonly study: string;
  readonly tester: string;
  readonly otherTester: string;
  readonly session: string;
}

/** Runs `work` through the system door; the transaction is always rolled back. */
async function attemptAsSystem(work: (tx: Tx) => Promise<unknown>): Promise<void> {
  const rollback = new Error('rolled back on purpose');
  await asSystem(testDatabase(), async (tx) => {
    await work(tx);
    throw rollback;
  }).catch((error: unknown) => {
    if (error !== rollback) throw error;
  });
}

describe('database bounds the API also validates', () => {
  let parents: Parents;

  before(async () => {
    parents = await asSystem(testDatabase(), async (tx) => {
      const user = (role: 'tester' | 'business') =>
        tx
          .insertInto('users')
          .values({ email: email(role), role })
          .returning('id')
          .executeTakeFirstOrThrow()
          .then((row) => row.id);
      const organization = (
        await tx
          .insertInto('organizations')
          .values({ name: unique('Org') })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const study = (
        await tx
          .insertInto('studies')
          .values(studyValues(organization, 'active'))
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const tester = await user('tester');
      const otherTester = await user('tester');
      const session = (
        await tx
          .insertInto('sessions')
          .values({ study_id: study, organization_id: organization, tester_id: tester })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      return { organization, study, tester, otherTester, session };
    });
  });

  const insertStudy = (changes: Record<string, unknown>) =>
    attemptAsSystem((tx) =>
      tx
        .insertInto('studies')
        .values({ ...studyValues(parents.organization, 'draft'), ...changes })
        .execute(),
    );

  describe('studies', () => {
    it('testerCount at most 10,000', async () => {
      await insertStudy({ tester_count: 10_000 });
      await assert.rejects(insertStudy({ tester_count: 10_001 }), CHECK_VIOLATION);
    });

    it('compensation above 0 and at most 100,000', async () => {
      await insertStudy({ compensation_amount: '0.01' });
      await insertStudy({ compensation_amount: '100000.00' });
      await assert.rejects(insertStudy({ compensation_amount: '0' }), CHECK_VIOLATION);
      await assert.rejects(insertStudy({ compensation_amount: '100000.01' }), CHECK_VIOLATION);
    });

    it('target countries are upper-case two-letter codes, every one of them', async () => {
      await insertStudy({ target_countries: ['GB', 'DE'] });
      for (const countries of [['GB', 'de'], ['G1'], ['D'], ['GB', null]]) {
        await assert.rejects(
          insertStudy({ target_countries: countries }),
          CHECK_VIOLATION,
          JSON.stringify(countries),
        );
      }
    });
  });

  describe('facial snapshots', () => {
    const insertSnapshot = (confidences: unknown) =>
      attemptAsSystem((tx) =>
        tx
          .insertInto('facial_snapshots')
          .values({
            session_id: parents.session,
            frame_index: 1,
            captured_at: '2030-01-12T08:01:00Z',
            face_detected: true,
            emotion: 'happy',
            confidences: JSON.stringify(confidences),
            attention_score: 0.9,
          })
          .execute(),
      );

    it('every emotion confidence is a number from 0 to 1', async () => {
      await insertSnapshot({ happy: 1, sad: 0 });
      await insertSnapshot({});
      for (const confidences of [
        { happy: 1.2 },
        { happy: 0.5, sad: -0.1 },
        { happy: '0.5' },
        { happy: null },
      ]) {
        await assert.rejects(insertSnapshot(confidences), CHECK_VIOLATION, JSON.stringify(confidences));
      }
    });
  });

  describe("payments and feedback belong to the session's own tester", () => {
    const insertPayment = (testerId: string) =>
      attemptAsSystem((tx) =>
        tx
          .insertInto('payments')
          .values({
            organization_id: parents.organization,
            study_id: parents.study,
            session_id: parents.session,
            tester_id: testerId,
            amount: '25.00',
            currency: 'EUR',
          })
          .execute(),
      );
    const insertFeedback = (testerId: string) =>
      attemptAsSystem((tx) =>
        tx
          .insertInto('session_feedback')
          .values({
            session_id: parents.session,
            tester_id: testerId,
            clarity: 4,
            difficulty: 2,
            technical_issues: false,
          })
          .execute(),
      );

    it('a payment names the tester of its session', async () => {
      await insertPayment(parents.tester);
      await assert.rejects(insertPayment(parents.otherTester), FOREIGN_KEY_VIOLATION);
    });

    it("session feedback is given under the session tester's id", async () => {
      await insertFeedback(parents.tester);
      await assert.rejects(insertFeedback(parents.otherTester), FOREIGN_KEY_VIOLATION);
    });
  });
});
