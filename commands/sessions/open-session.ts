import { type Tx } from '../../db/doors.ts';
import {
  insertSession,
  liveSessionCount,
  liveSessionOf,
  lockStudyForAssignment,
  refreshStudyNotesConfirmed,
  variantCounts,
  type SessionRow,
} from '../../db/repositories/sessions.ts';
import type { StudyRecord } from '../../db/repositories/studies.ts';
import { setTestToken } from '../../db/repositories/test-tokens.ts';
import { assignVariant } from '../../lib/assign-variant.ts';
import { invalid } from '../../lib/errors.ts';
import { mintTestToken, type MintedTestToken } from '../../lib/test-token.ts';

export interface SessionOpening {
  /** The study the session belongs to, read in the same transaction. */
  readonly record: StudyRecord;
  readonly testerId: string;
  /** A variant the caller chose; the study's split decides when absent. */
  readonly variant?: string | undefined;
  readonly at: Date;
  /** When the tester is expected to have run it (an accepted offer's 48 hours). */
  readonly dueAt?: Date;
}

/** Why a study cannot take the tester's session: every place is taken, or the tester has one. */
export type SessionRefusal = 'study_full' | 'tester_has_session';

export type OpenedSession =
  | { readonly opened: true; readonly session: SessionRow; readonly token: MintedTestToken }
  | { readonly opened: false; readonly refusal: SessionRefusal };

/**
 * The one way a session comes to exist, whether a business creates it (`POST /api/sessions`) or a
 * tester accepts an offer: under the study's assignment lock, the study must have a free place
 * (fewer live sessions than `testerCount`) and the tester no live session on it; the variant
 * follows the split unless the caller chose one; the study's `notes_confirmed` is refreshed (a new
 * session's notes are unconfirmed); and the session gets its test token. Which study statuses
 * admit a session is the caller's rule: an offer sent while the study was active may be accepted
 * while it is paused, a business creates sessions on an active study only.
 */
export async function openSession(tx: Tx, opening: SessionOpening): Promise<OpenedSession> {
  const { study } = opening.record;
  await lockStudyForAssignment(tx, study.id);
  if (await liveSessionOf(tx, study.id, opening.testerId)) {
    return { opened: false, refusal: 'tester_has_session' };
  }
  if ((await liveSessionCount(tx, study.id)) >= study.tester_count) {
    return { opened: false, refusal: 'study_full' };
  }
  const session = await insertSession(tx, {
    study_id: study.id,
    organization_id: study.organization_id,
    tester_id: opening.testerId,
    variant: await variantFor(tx, opening.record, opening.variant),
    started_at: opening.at,
    due_at: opening.dueAt ?? null,
    created_at: opening.at,
    updated_at: opening.at,
  });
  await refreshStudyNotesConfirmed(tx, study.id);
  const token = mintTestToken(opening.at);
  await setTestToken(tx, session.id, token.hash, token.expiresAt);
  return { opened: true, session, token };
}

async function variantFor(tx: Tx, { study, variants }: StudyRecord, requested: string | undefined) {
  if (!variants.length) {
    if (requested !== undefined) throw invalid('variant: This study runs a single variant');
    return null;
  }
  const labels = variants.map((variant) => variant.label);
  if (requested !== undefined) {
    if (!labels.includes(requested)) throw invalid(`variant: Must be one of ${labels.join(', ')}`);
    return requested;
  }
  const shares = variants.map((variant) => ({ label: variant.label, share: Number(variant.split_ratio) }));
  return assignVariant(shares, await variantCounts(tx, study.id));
}
