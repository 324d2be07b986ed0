import { sql } from 'kysely';
import type { Tx } from '../doors.ts';
import type { ScreenshotGap, ScreenshotSource } from '../../lib/domain.ts';
import { eventsForMoment, inflateChunks } from '../../lib/recording/moment-events.ts';

// Pictures of a report's findings (0042), made by the audit worker through the system door and
// read by those who may watch the session.

export interface FindingToPicture {
  readonly noteId: string;
  readonly title: string;
  readonly moment: Date;
  readonly selector: string | null;
}

export interface SessionToPicture {
  readonly prototypeUrl: string;
  /** The report's findings that have no picture yet, in the report's order. */
  readonly findings: readonly FindingToPicture[];
}

/** The session's tester report's findings still to picture, with their elements; undefined without a report. */
export async function findingsToPicture(tx: Tx, sessionId: string): Promise<SessionToPicture | undefined> {
  const report = await tx
    .selectFrom('reports')
    .innerJoin('studies', 'studies.id', 'reports.study_id')
    .select(['reports.content', 'studies.prototype_url'])
    .where('reports.session_id', '=', sessionId)
    .orderBy('reports.generated_at', 'desc')
    .executeTakeFirst();
  if (!report) return undefined;
  const listed = (report.content.findings ?? []) as { findingId: string; title: string; timestamp: string }[];
  if (listed.length === 0) return { prototypeUrl: report.prototype_url, findings: [] };
  const notes = await tx
    .selectFrom('session_notes')
    .leftJoin('finding_screenshots', 'finding_screenshots.note_id', 'session_notes.id')
    .select([
      'session_notes.id',
      'session_notes.target_selector',
      'finding_screenshots.gap',
      'finding_screenshots.id as pictured',
    ])
    .where('session_notes.session_id', '=', sessionId)
    .where(
      'session_notes.id',
      'in',
      listed.map((finding) => finding.findingId),
    )
    .execute();
  const byId = new Map(notes.map((note) => [note.id, note]));
  return {
    prototypeUrl: report.prototype_url,
    findings: listed.flatMap((finding) => {
      const note = byId.get(finding.findingId);
      // A finding no browser reached is tried again; any other row is its answer.
      if (!note || (note.pictured !== null && note.gap !== 'no_browser')) return [];
      return [
        {
          noteId: note.id,
          title: finding.title,
          moment: new Date(finding.timestamp),
          selector: note.target_selector,
        },
      ];
    }),
  };
}

/**
 * The chunks a replay of `at` reads: from the last one holding a full snapshot that began at or
 * before `at` (and before chunk `beforeSeq`, when a later anchor's snapshot proved to come after
 * the moment) through the first that ends at or after it; at most `limit` chunks, else none.
 */
async function chunksForMoment(
  tx: Tx,
  sessionId: string,
  at: Date,
  options: { readonly beforeSeq: number | null; readonly limit: number },
): Promise<{ readonly seq: number; readonly data: Buffer }[] | 'too_many'> {
  const { rows } = await sql<{ seq: number; data: Buffer }>`
    with anchor as (
      select max(seq) as seq from session_recording_chunks
      where session_id = ${sessionId}::uuid and has_full_snapshot and started_at <= ${at}
        and (${options.beforeSeq}::int4 is null or seq < ${options.beforeSeq}::int4)
    ), through as (
      select min(c.seq) as seq from session_recording_chunks c, anchor a
      where c.session_id = ${sessionId}::uuid and c.seq >= a.seq and c.ended_at >= ${at}
    )
    select c.seq, c.data from session_recording_chunks c, anchor, through
    where c.session_id = ${sessionId}::uuid and c.seq >= anchor.seq
      and (through.seq is null or c.seq <= through.seq)
    order by c.seq
    limit ${options.limit + 1}`.execute(tx);
  return rows.length > options.limit ? 'too_many' : rows;
}

/** Chunks a replay reads at most: a full snapshot comes every 60 s, a chunk every 5 s. */
const MAX_MOMENT_CHUNKS = 40;

/**
 * The events replaying the session's recording up to `at`, from the last full snapshot before it;
 * null when no recording covers the moment (or one too long to replay). A chunk that began before
 * the moment may hold its full snapshot after it: then the chunks from the snapshot before.
 */
export async function momentEvents(tx: Tx, sessionId: string, at: Date): Promise<readonly unknown[] | null> {
  let beforeSeq: number | null = null;
  for (let tries = 0; tries < 2; tries++) {
    const chunks = await chunksForMoment(tx, sessionId, at, { beforeSeq, limit: MAX_MOMENT_CHUNKS });
    if (chunks === 'too_many' || chunks.length === 0) return null;
    const moment = eventsForMoment(inflateChunks(chunks), at.getTime());
    if (moment.kind === 'events') return moment.events;
    if (moment.kind === 'too_many') return null;
    beforeSeq = chunks[0]!.seq;
  }
  return null;
}

export type FindingScreenshotRecord =
  | {
      readonly source: Exclude<ScreenshotSource, 'none'>;
      readonly png: Buffer;
      readonly width: number;
      readonly height: number;
      readonly altText: string;
      readonly pageUrl: string | null;
      readonly outlined: boolean;
    }
  | { readonly source: 'none'; readonly gap: ScreenshotGap };

/** Stores a finding's picture (or why it has none); a retried capture replaces its own row. */
export async function saveFindingScreenshot(
  tx: Tx,
  finding: { readonly sessionId: string; readonly noteId: string; readonly moment: Date },
  record: FindingScreenshotRecord,
): Promise<void> {
  const values =
    record.source === 'none'
      ? {
          source: record.source,
          png: null,
          width: null,
          height: null,
          alt_text: null,
          page_url: null,
          outlined: false,
          gap: record.gap,
        }
      : {
          source: record.source,
          png: record.png,
          width: record.width,
          height: record.height,
          alt_text: record.altText,
          page_url: record.pageUrl,
          outlined: record.outlined,
          gap: null,
        };
  await tx
    .insertInto('finding_screenshots')
    .values({ session_id: finding.sessionId, note_id: finding.noteId, moment: finding.moment, ...values })
    .onConflict((conflict) => conflict.column('note_id').doUpdateSet({ ...values, captured_at: sql`now()` }))
    .execute();
}

export interface FindingScreenshotRow {
  readonly note_id: string;
  readonly source: ScreenshotSource;
  readonly png: Buffer | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly alt_text: string | null;
  readonly page_url: string | null;
  readonly outlined: boolean;
  readonly gap: ScreenshotGap | null;
  readonly moment: Date;
  readonly captured_at: Date;
}

/** The session's pictures the caller may see, by finding. */
export async function listFindingScreenshots(
  tx: Tx,
  sessionId: string,
): Promise<Map<string, FindingScreenshotRow>> {
  const rows = await tx
    .selectFrom('finding_screenshots')
    .select([
      'note_id',
      'source',
      'png',
      'width',
      'height',
      'alt_text',
      'page_url',
      'outlined',
      'gap',
      'moment',
      'captured_at',
    ])
    .where('session_id', '=', sessionId)
    .execute();
  return new Map(rows.map((row) => [row.note_id, row]));
}

/** The pictures replayed from the session's recording, blanked when the recording is erased. */
export async function blankReplayedScreenshots(tx: Tx, sessionId: string): Promise<number> {
  const result = await tx
    .updateTable('finding_screenshots')
    .set({
      source: 'none',
      png: null,
      width: null,
      height: null,
      alt_text: null,
      page_url: null,
      outlined: false,
      gap: 'recording_erased',
    })
    .where('session_id', '=', sessionId)
    .where('source', '=', 'replay')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
