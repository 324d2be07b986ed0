import type { Tx } from '../doors.ts';
import type { AuditJobRow, NewAuditJob } from './audits.ts';

// The audit of a study's prototype (0045): at most one full audit per study, queued when it became active.

/** The study's prototype as the audit needs it; undefined for an unknown study. */
export function prototypeOfStudy(tx: Tx, studyId: string) {
  return tx
    .selectFrom('studies')
    .select(['organization_id', 'prototype_url', 'prototype_type'])
    .where('id', '=', studyId)
    .executeTakeFirst();
}

/**
 * Stores the study's audit as queued, or finds the one stored before (a retried activity, a
 * second activation): a study is audited once.
 */
export async function insertStudyAuditJob(
  tx: Tx,
  job: NewAuditJob & { readonly study_id: string },
): Promise<AuditJobRow> {
  const inserted = await tx
    .insertInto('audit_jobs')
    .values(job)
    .onConflict((conflict) => conflict.column('study_id').where('study_id', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted ?? (await studyAuditJob(tx, job.study_id))!;
}

/** The audit of the study's prototype, as the caller may read it (row-level security). */
export function studyAuditJob(tx: Tx, studyId: string): Promise<AuditJobRow | undefined> {
  return tx.selectFrom('audit_jobs').selectAll().where('study_id', '=', studyId).executeTakeFirst();
}

/**
 * The barriers the study's testers met: each confirmed finding under a WCAG criterion, with its
 * session (patterns are left out: they group findings already counted). Row-level security
 * decides what the caller sees.
 */
export function testerBarriersOfStudy(tx: Tx, studyId: string) {
  return tx
    .selectFrom('session_notes as n')
    .innerJoin('sessions as s', 's.id', 'n.session_id')
    .select(['n.wcag_criterion as criterion', 'n.session_id as sessionId'])
    .where('s.study_id', '=', studyId)
    .where('n.author_kind', '=', 'agent')
    .where('n.pattern', '=', false)
    .where('n.confirmed', '=', true)
    .where((eb) => eb.or([eb('n.decision', 'is', null), eb('n.decision', '=', 'confirmed')]))
    .where('n.wcag_criterion', 'is not', null)
    .$narrowType<{ criterion: string }>()
    .execute();
}
