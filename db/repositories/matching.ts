import { sql } from 'kysely';
import type { Tx } from '../doors.ts';
import type { AccessNeed, AssistiveTechnology, Device, StudyStatus } from '../../lib/domain.ts';

/** What the eligibility query filters on: the study's targeting, read from its row. */
export interface MatchingTarget {
  readonly studyId: string;
  readonly countries: readonly string[];
  readonly devices: readonly Device[];
  /** Primary language subtags, lower case (`en` for en-GB): a shared one is enough. */
  readonly languages: readonly string[];
  readonly ageMin: number | null;
  readonly ageMax: number | null;
  /** The year ages are counted in (profiles keep a birth year). */
  readonly year: number;
}

export interface CandidateRow {
  readonly tester_id: string;
  readonly country: string;
  readonly devices: Device[];
  readonly languages: string[];
  readonly access_needs: AccessNeed[];
  readonly assistive_technologies: AssistiveTechnology[];
  readonly completed_sessions: number;
  readonly mean_rating: string | null;
  readonly last_active_at: Date | null;
}

/**
 * Every tester who may be proposed for the study: an active, qualified (quiz passed) profile of an
 * account that is not suspended, in one of its countries, inside its age range (a profile without
 * a birth year only when the study sets none), with one of its devices and a shared language, and
 * neither a session nor a proposal on it already. With each, their history: confirmed sessions,
 * their mean rating and the latest session. The partial index of 0028 serves the profile filter.
 */
export async function eligibleTesters(tx: Tx, target: MatchingTarget): Promise<CandidateRow[]> {
  const { rows } = await sql<CandidateRow>`
    select p.user_id as tester_id, p.country::text as country, p.devices, p.languages, p.access_needs, p.assistive_technologies,
           h.completed_sessions, h.mean_rating, h.last_active_at
    from tester_profiles p
    join users u on u.id = p.user_id and u.status = 'active'
    cross join lateral (
      select count(*) filter (where s.status = 'confirmed')::int as completed_sessions,
             round(avg(s.business_rating) filter (where s.status = 'confirmed'), 2)::text as mean_rating,
             max(s.created_at) as last_active_at
      from sessions s
      where s.tester_id = p.user_id
    ) h
    where p.status = 'active'
      -- Qualified: the quiz passed or an admin's approval (0032's stored column and partial index).
      and p.qualified
      -- bpchar, the column's type: compared as text, the partial index of 0028 would go unused.
      and p.country = any(${[...target.countries]}::bpchar[])
      and p.devices && ${[...target.devices]}::text[]
      and exists (
        select 1 from unnest(p.languages) as spoken (code)
        where lower(split_part(spoken.code, '-', 1)) = any(${[...target.languages]}::text[])
      )
      and (${target.ageMin}::int is null or p.birth_year <= ${target.year} - ${target.ageMin}::int)
      and (${target.ageMax}::int is null or p.birth_year >= ${target.year} - ${target.ageMax}::int)
      and not exists (select 1 from sessions s where s.study_id = ${target.studyId} and s.tester_id = p.user_id)
      and not exists (select 1 from proposals o where o.study_id = ${target.studyId} and o.tester_id = p.user_id)
  `.execute(tx);
  return rows;
}

/**
 * The testers the study holds a place for: those with a live session (not cancelled) and those
 * with a pending proposal or an accepted one whose message was not rejected and whose offer was not
 * declined, left to expire or withdrawn and whose session was not cancelled, each tester once.
 */
const holdingTesters = (studyId: string) => sql`
  select tester_id from sessions where study_id = ${studyId} and status <> 'cancelled'
  union
  select p.tester_id from proposals p
  where p.study_id = ${studyId}
    and (p.status = 'pending' or (p.status = 'accepted' and not exists (
      select 1 from outreach_messages m where m.proposal_id = p.id
        and (m.status = 'rejected' or m.offer_status in ('declined', 'expired', 'withdrawn')
          or exists (select 1 from sessions c where c.id = m.session_id and c.status = 'cancelled'))
    )))
`;

/** How many testers the study holds a place for (`holdingTesters`). */
export async function placesTaken(tx: Tx, studyId: string): Promise<number> {
  const { rows } = await sql<{ taken: number }>`
    select count(*)::int as taken from (${holdingTesters(studyId)}) holding
  `.execute(tx);
  return rows[0]?.taken ?? 0;
}

/** The places held, by the holders' country (a tester without a profile counts under none). */
export async function placesHeldByCountry(tx: Tx, studyId: string): Promise<Map<string, number>> {
  const { rows } = await sql<{ country: string; held: number }>`
    select p.country::text as country, count(*)::int as held
    from (${holdingTesters(studyId)}) holding
    join tester_profiles p on p.user_id = holding.tester_id
    group by p.country
  `.execute(tx);
  return new Map(rows.map((row) => [row.country, row.held]));
}

export interface NewProposal {
  readonly testerId: string;
  readonly score: number;
  readonly reasons: readonly string[];
}

/** Rows per insert: each takes six parameters, and a statement at most 65,535. */
const PROPOSALS_PER_INSERT = 1_000;

/** Stores pending proposals; a tester already proposed for the study is skipped (one each). */
export async function insertProposals(
  tx: Tx,
  study: { readonly id: string; readonly organizationId: string },
  proposals: readonly NewProposal[],
  now: Date,
): Promise<number> {
  let count = 0;
  for (let start = 0; start < proposals.length; start += PROPOSALS_PER_INSERT) {
    const inserted = await tx
      .insertInto('proposals')
      .values(
        proposals.slice(start, start + PROPOSALS_PER_INSERT).map((proposal) => ({
          organization_id: study.organizationId,
          study_id: study.id,
          tester_id: proposal.testerId,
          match_score: proposal.score.toFixed(4),
          match_reasons: [...proposal.reasons],
          generated_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['study_id', 'tester_id']).doNothing())
      .returning('id')
      .execute();
    count += inserted.length;
  }
  return count;
}

/**
 * Locks the study for one matching run and answers its status. `for no key update`: runs take
 * turns, while sessions and messages that reference the study can still be written meanwhile.
 */
export async function lockStudyForMatching(tx: Tx, studyId: string): Promise<StudyStatus | undefined> {
  const row = await tx
    .selectFrom('studies')
    .select('status')
    .where('id', '=', studyId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row?.status;
}
