import type { Insertable, Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { OutreachMessagesTable } from '../schema-reports.ts';

export type OutreachRow = Selectable<OutreachMessagesTable>;

export async function insertOutreachMessage(
  tx: Tx,
  message: Insertable<OutreachMessagesTable>,
): Promise<void> {
  await tx.insertInto('outreach_messages').values(message).execute();
}

/** Pending messages the caller may see (row-level security), oldest first, with the total. */
export async function listPendingOutreach(
  tx: Tx,
  filter: { readonly studyId?: string | undefined; readonly limit: number; readonly offset: number },
): Promise<{ rows: OutreachRow[]; total: number }> {
  let query = tx.selectFrom('outreach_messages').where('status', '=', 'pending');
  if (filter.studyId) query = query.where('study_id', '=', filter.studyId);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('generated_at')
      .orderBy('id')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** A message as the caller may see it, locked for a change. */
export function lockOutreachMessage(tx: Tx, id: string): Promise<OutreachRow | undefined> {
  return tx.selectFrom('outreach_messages').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateOutreachMessage(
  tx: Tx,
  id: string,
  change: Partial<
    Pick<
      OutreachRow,
      'subject' | 'body' | 'updated_at' | 'status' | 'rejected_at' | 'rejected_by' | 'rejection_reason'
    >
  >,
): Promise<OutreachRow> {
  return tx
    .updateTable('outreach_messages')
    .set(change)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
