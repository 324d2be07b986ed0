import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Claims, Tx } from '../doors.ts';
import type { Database, StudiesTable, StudyTasksTable, StudyVariantsTable } from '../schema.ts';
import type { StudyStatus, ToneProfile } from '../../lib/domain.ts';

export type StudyRow = Selectable<StudiesTable>;
export type StudyTaskRow = Selectable<StudyTasksTable>;
export type StudyVariantRow = Selectable<StudyVariantsTable>;

export interface StudyRecord {
  readonly study: StudyRow;
  readonly tasks: readonly StudyTaskRow[];
  readonly variants: readonly StudyVariantRow[];
}

export type NewStudy = Insertable<StudiesTable>;
export type NewTask = Omit<Insertable<StudyTasksTable>, 'study_id'>;
export type NewVariant = Omit<Insertable<StudyVariantsTable>, 'study_id'>;

/**
 * Inserts a study with its tasks and variants. With an idempotency key already used by the
 * organization, nothing is inserted and null is returned (the unique index decides, so two
 * concurrent retries cannot both insert).
 */
export async function insertStudy(
  tx: Tx,
  study: NewStudy,
  tasks: readonly NewTask[],
  variants: readonly NewVariant[],
): Promise<StudyRow | null> {
  const inserted = await tx
    .insertInto('studies')
    .values(study)
    .onConflict((oc) =>
      oc.columns(['organization_id', 'idempotency_key']).where('idempotency_key', 'is not', null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (!inserted) return null;
  if (tasks.length)
    await tx
      .insertInto('study_tasks')
      .values(tasks.map((t) => ({ ...t, study_id: inserted.id })))
      .execute();
  if (variants.length) {
    await tx
      .insertInto('study_variants')
      .values(variants.map((v) => ({ ...v, study_id: inserted.id })))
      .execute();
  }
  return inserted;
}

export function findStudyByIdempotencyKey(
  tx: Tx,
  organizationId: string,
  key: string,
): Promise<StudyRow | undefined> {
  return tx
    .selectFrom('studies')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/**
 * The study with its tasks and variants, in one round trip: every read of a study (the busiest
 * being `GET /api/jobs/:id`) pays for one query, not three. The rows come back as JSON, so each
 * column is named as its row type has it (a variant's numeric share as text, as `pg` reads it).
 */
export function studyWithParts(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('studies as s')
    .selectAll('s')
    .select([
      sql<StudyTaskRow[]>`coalesce((
        select json_agg(json_build_object('id', t.id, 'study_id', t.study_id, 'position', t.position,
          'title', t.title, 'description', t.description, 'success_criteria', t.success_criteria)
          order by t.position)
        from study_tasks t where t.study_id = s.id), '[]'::json)`.as('tasks_json'),
      sql<StudyVariantRow[]>`coalesce((
        select json_agg(json_build_object('id', v.id, 'study_id', v.study_id, 'position', v.position,
          'label', v.label, 'description', v.description, 'split_ratio', v.split_ratio::text)
          order by v.position)
        from study_variants v where v.study_id = s.id), '[]'::json)`.as('variants_json'),
    ])
    .where('s.id', '=', id);
}

export async function findStudy(tx: Tx, id: string): Promise<StudyRecord | undefined> {
  const row = await studyWithParts(tx, id).executeTakeFirst();
  if (!row) return undefined;
  const { tasks_json: tasks, variants_json: variants, ...study } = row;
  return { study, tasks, variants };
}

export interface StudyListFilter {
  readonly status?: StudyStatus | undefined;
  readonly limit: number;
  readonly offset: number;
}

/**
 * Studies visible to the caller (RLS scopes them), newest first, with the total for pagination.
 * The caller's own rows are also named outright: the policy's OR (an admin, the organization, a
 * session on the study) can use no index, so without that the page and the count went through
 * every study of every organization, asking about each one's sessions, and a business's list
 * slowed as the platform grew. They are the rows the policy allows because only testers hold
 * sessions (createSession refuses anyone else) and only business users belong to organizations.
 */
export async function listStudies(
  tx: Tx,
  filter: StudyListFilter,
  caller: Claims,
): Promise<{ rows: StudyRow[]; total: number }> {
  let query = tx.selectFrom('studies');
  if (caller.role === 'business' && caller.organization_id)
    query = query.where('organization_id', '=', caller.organization_id);
  if (caller.role === 'tester')
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('study_id')
        .where('tester_id', '=', caller.sub)
        .where('status', '<>', 'cancelled'),
    );
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Each study's variant labels in the order its creator listed them. */
export async function variantLabelsOf(tx: Tx, studyIds: readonly string[]): Promise<Map<string, string[]>> {
  const labels = new Map<string, string[]>();
  if (!studyIds.length) return labels;
  const rows = await tx
    .selectFrom('study_variants')
    .select(['study_id', 'label'])
    .where('study_id', 'in', studyIds)
    .orderBy('study_id')
    .orderBy('position')
    .execute();
  for (const row of rows) labels.set(row.study_id, [...(labels.get(row.study_id) ?? []), row.label]);
  return labels;
}

/** The study row, locked until the transaction ends (a tone change against a first report). */
export async function lockStudy(tx: Tx, id: string): Promise<void> {
  await tx.selectFrom('studies').select('id').where('id', '=', id).forUpdate().execute();
}

export async function updateStudyRow(tx: Tx, id: string, change: Updateable<StudiesTable>): Promise<void> {
  await tx.updateTable('studies').set(change).where('id', '=', id).execute();
}

/**
 * The study's status and organization, its row locked until the transaction ends as the update
 * that follows would lock it (FOR NO KEY UPDATE): sessions and offers that reference the study
 * (their foreign keys take KEY SHARE) are not held up, as FOR UPDATE would hold them.
 */
export function lockedStudyStatus(
  tx: Tx,
  id: string,
): Promise<{ status: StudyStatus; organization_id: string } | undefined> {
  return tx
    .selectFrom('studies')
    .select(['status', 'organization_id'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

export async function setStudyStatus(tx: Tx, id: string, status: StudyStatus): Promise<void> {
  await tx.updateTable('studies').set({ status, updated_at: new Date() }).where('id', '=', id).execute();
}

/** The study's organization, or undefined when there is no such study. */
export function findStudyOrganization(
  tx: Tx,
  id: string,
): Promise<{ id: string; organization_id: string } | undefined> {
  return tx.selectFrom('studies').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst();
}

/** The organization of a study that must exist (a missing one throws). */
export async function organizationOfStudy(tx: Tx, id: string): Promise<string> {
  const study = await tx
    .selectFrom('studies')
    .select('organization_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return study.organization_id;
}

/** The tone a study's reports are written in (the study must exist). */
export async function toneProfileOf(tx: Tx, id: string): Promise<ToneProfile> {
  const study = await tx
    .selectFrom('studies')
    .select('tone_profile')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return study.tone_profile;
}

/** The study's title (the study must exist). */
export async function studyTitle(tx: Tx, id: string): Promise<string> {
  const study = await tx.selectFrom('studies').select('title').where('id', '=', id).executeTakeFirstOrThrow();
  return study.title;
}

/** What the business commissioned: the study's title, tester count and compensation per session. */
export function studyCommission(
  tx: Tx,
  id: string,
): Promise<
  Pick<StudyRow, 'title' | 'tester_count' | 'compensation_amount' | 'compensation_currency'> | undefined
> {
  return tx
    .selectFrom('studies')
    .select(['title', 'tester_count', 'compensation_amount', 'compensation_currency'])
    .where('id', '=', id)
    .executeTakeFirst();
}
