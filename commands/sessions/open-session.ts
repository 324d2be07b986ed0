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
import { assignVariant } from '../../lib/assign-variant.ts';
import { invalid } from '../../lib/errors.ts';
import { issueTestToken } from './test-token-delivery.ts';

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

/**
 * Why a study cannot take the tester's session; both may hold. Each caller answers the one it
 * names first: the API that the tester has a session (a retried create), an offer that the study
 * is full.
 */
export interface SessionRefusal {
  readonly studyFull: boolean;
  readonly testerHasSession: boolean;
}

export type OpenedSession =
  | {
      readonly opened: true;
      readonly session: SessionRow;
      readonly token: { token: string; expiresAt: Date };
    }
  | ({ readonly opened: false } & SessionRefusal);

/**
 * The one way a session comes to exist, whether a business creates it (`POST /api/sessions`) or a
 * tester accepts an offer: a variant the caller chose must be one of the study's (422 otherwise);
 * under the study's assignment lock, the study must have a free place (fewer live sessions than
 * `testerCount`) and the tester no live session on it; the variant follows the split unless the
 * caller chose one; the study's `notes_confirmed` is refreshed (a new session's notes are
 * unconfirmed); and the session gets its test token. Which study statuses admit a session is the
 * caller's rule: an offer sent while the study was active may be accepted while it is paused, a
 * business creates sessions on an active study only.
 */
export async function openSession(tx: Tx, opening: SessionOpening): Promise<OpenedSession> {
  const { record } = opening;
  const { study } = record;
  const chosen = chosenVariant(record, opening.variant);
  await lockStudyForAssignment(tx, study.id);
  const studyFull = (await liveSessionCount(tx, study.id)) >= study.tester_count;
  const testerHasSession = (await liveSessionOf(tx, study.id, opening.testerId)) !== undefined;
  if (studyFull || testerHasSession) return { opened: false, studyFull, testerHasSession };
  const session = await insertSession(tx, {
    study_id: study.id,
    organization_id: study.organization_id,
    tester_id: opening.testerId,
    variant: chosen === undefined ? await splitVariant(tx, record) : chosen,
    started_at: opening.at,
    due_at: opening.dueAt ?? null,
    created_at: opening.at,
    updated_at: opening.at,
  });
  await refreshStudyNotesConfirmed(tx, study.id);
  return { opened: true, session, token: await issueTestToken(tx, session.id, opening.at) };
}

/** The variant the caller asked for, checked against the study's; undefined when it asked none. */
function chosenVariant({ variants }: StudyRecord, requested: string | undefined): string | null | undefined {
  if (requested === undefined) return undefined;
  if (!variants.length) throw invalid('variant: This study runs a single variant');
  const labels = variants.map((variant) => variant.label);
  if (!labels.includes(requested)) throw invalid(`variant: Must be one of ${labels.join(', ')}`);
  return requested;
}

/** The variant whose share lags most (none on a single-variant study). */
async function splitVariant(tx: Tx, { study, variants }: StudyRecord): Promise<string | null> {
  if (!variants.length) return null;
  const shares = variants.map((variant) => ({ label: variant.label, share: Number(variant.split_ratio) }));
  return assignVariant(shares, await variantCounts(tx, study.id));
}
