import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Tx } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { createFixtures, type Fixtures } from './rls-matrix/fixtures.ts';
import { attempt, type Actor } from './rls-matrix/matrix.ts';

// The matrix's update cells write a column onto itself, so they see which rows a caller may
// update, never which columns. These cases change real values through the user door: the guards
// of db/migrations/0015_data_hardening.sql must refuse what the policies alone would let through.

type Caller = Actor | 'system';

interface ColumnCase {
  readonly name: string;
  readonly caller: Caller;
  readonly table: 'users' | 'session_notes' | 'sessions';
  readonly key: (f: Fixtures) => string;
  readonly set: Readonly<Record<string, unknown>>;
  readonly allowed: boolean;
  /** Runs first, as the connection's own role (no RLS, no guard). */
  readonly before?: (tx: Tx, f: Fixtures) => Promise<unknown>;
}

const DECIDED = '2030-01-12T09:30:00Z';
const testerSelf = (f: Fixtures) => f.actors.testerWith.sub;
const businessSelf = (f: Fixtures) => f.actors.businessA.sub;
const agentFinding = (f: Fixtures) => f.agentFinding;
// A human note written by the business of A on the tester's live session.
const businessNote = (f: Fixtures) => f.humanNote;
const liveSession = (f: Fixtures) => f.liveSession;

const CASES: readonly ColumnCase[] = [
  // users: a user changes their display name and nothing else.
  {
    name: 'a tester renames themself',
    caller: 'testerWith',
    table: 'users',
    key: testerSelf,
    set: { display_name: 'Renamed' },
    allowed: true,
  },
  {
    name: 'a tester changes their e-mail',
    caller: 'testerWith',
    table: 'users',
    key: testerSelf,
    set: { email: 'elsewhere@example.com' },
    allowed: false,
  },
  {
    name: 'a tester replaces their password hash',
    caller: 'testerWith',
    table: 'users',
    key: testerSelf,
    set: { password_hash: 'scrypt$1$1$1$AA$AA' },
    allowed: false,
  },
  {
    name: 'a suspended tester lifts their own suspension',
    caller: 'testerWith',
    table: 'users',
    key: testerSelf,
    set: { status: 'active' },
    allowed: false,
    before: (tx, f) =>
      sql`update users set status = 'suspended' where id = ${f.actors.testerWith.sub}`.execute(tx),
  },
  {
    name: 'a business user changes their status',
    caller: 'businessA',
    table: 'users',
    key: businessSelf,
    set: { status: 'pending' },
    allowed: false,
  },
  {
    name: "an admin changes a tester's e-mail and status",
    caller: 'admin',
    table: 'users',
    key: testerSelf,
    set: { email: 'moved@example.com', status: 'suspended' },
    allowed: true,
  },

  // Agent findings: the tester decides on them and changes nothing else.
  {
    name: "the session's tester decides on an agent finding",
    caller: 'testerWith',
    table: 'session_notes',
    key: agentFinding,
    set: {
      decision: 'confirmed',
      confirmed: true,
      decided_at: DECIDED,
      annotation: 'I could not pay either',
    },
    allowed: true,
  },
  {
    name: "the tester rewrites an agent finding's content",
    caller: 'testerWith',
    table: 'session_notes',
    key: agentFinding,
    set: { content: 'Nothing wrong here' },
    allowed: false,
  },
  {
    name: "the tester lowers an agent finding's severity",
    caller: 'testerWith',
    table: 'session_notes',
    key: agentFinding,
    set: { severity: 'low' },
    allowed: false,
  },
  {
    name: "the tester remaps an agent finding's WCAG criterion",
    caller: 'testerWith',
    table: 'session_notes',
    key: agentFinding,
    set: { wcag_criterion: '1.4.3', wcag_level: 'AA' },
    allowed: false,
  },
  {
    name: 'the tester passes an agent finding off as human',
    caller: 'testerWith',
    table: 'session_notes',
    key: agentFinding,
    set: { author_kind: 'human', agent_job_id: null },
    allowed: false,
  },
  {
    name: 'an admin corrects an agent finding',
    caller: 'admin',
    table: 'session_notes',
    key: agentFinding,
    set: { content: 'Corrected wording' },
    allowed: true,
  },

  // Human notes: the author edits the wording, the session's tester decides.
  {
    name: 'the business edits its own note',
    caller: 'businessA',
    table: 'session_notes',
    key: businessNote,
    set: { content: 'Reworded' },
    allowed: true,
  },
  {
    name: 'the business confirms its own note',
    caller: 'businessA',
    table: 'session_notes',
    key: businessNote,
    set: { confirmed: true },
    allowed: false,
  },
  {
    name: "the tester rewrites the business's note",
    caller: 'testerWith',
    table: 'session_notes',
    key: businessNote,
    set: { content: 'Not what they said' },
    allowed: false,
  },
  {
    name: "the tester rejects the business's note",
    caller: 'testerWith',
    table: 'session_notes',
    key: businessNote,
    set: { decision: 'rejected', decided_at: DECIDED },
    allowed: true,
  },

  // Sessions: the rating is the tester's; the organization still writes the rest of its sessions.
  {
    name: "the organization overwrites the tester's rating",
    caller: 'businessA',
    table: 'sessions',
    key: liveSession,
    set: { rating: 1 },
    allowed: false,
  },
  {
    name: "the organization overwrites the tester's rating comment",
    caller: 'businessA',
    table: 'sessions',
    key: liveSession,
    set: { rating_comment: 'Great session' },
    allowed: false,
  },
  {
    name: 'the tester rates their session',
    caller: 'testerWith',
    table: 'sessions',
    key: liveSession,
    set: { rating: 5, rating_comment: 'Clear tasks' },
    allowed: true,
  },
  {
    name: 'the organization cancels its session',
    caller: 'businessA',
    table: 'sessions',
    key: liveSession,
    set: { status: 'cancelled', cancelled_at: DECIDED },
    allowed: true,
  },
  {
    name: 'an admin rates a session',
    caller: 'admin',
    table: 'sessions',
    key: liveSession,
    set: { rating: 3 },
    allowed: true,
  },
  {
    name: 'the system door records a rating',
    caller: 'system',
    table: 'sessions',
    key: liveSession,
    set: { rating: 4, rating_comment: 'From the confirmation' },
    allowed: true,
  },
];

async function run(tx: Tx, fixtures: Fixtures, testCase: ColumnCase): Promise<boolean | string> {
  const assignments = sql.join(
    Object.entries(testCase.set).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
  );
  const update = async () => {
    const result = await sql`update ${sql.table(testCase.table)} set ${assignments}
      where id = ${testCase.key(fixtures)}`.execute(tx);
    return result.numAffectedRows === 1n;
  };
  await testCase.before?.(tx, fixtures);
  if (testCase.caller !== 'system') return attempt(tx, fixtures.actors[testCase.caller], 'update', update);
  // The system door exactly as db/doors.ts asSystem sets it up.
  await sql`savepoint system_cell; select set_config('request.jwt.claims', '', true); set local role usability_system`.execute(
    tx,
  );
  try {
    return await update();
  } finally {
    await sql`rollback to savepoint system_cell`.execute(tx);
  }
}

describe('column guards: what a caller may change in the rows the policies let them update', () => {
  let fixtures: Fixtures;
  before(async () => {
    fixtures = await createFixtures(testDatabase());
  });

  for (const testCase of CASES) {
    it(`${testCase.allowed ? 'allowed' : 'refused'}: ${testCase.name}`, async () => {
      const tx = await testDatabase().startTransaction().execute();
      try {
        assert.equal(await run(tx, fixtures, testCase), testCase.allowed);
      } finally {
        await tx.rollback().execute();
      }
    });
  }
});
