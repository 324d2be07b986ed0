import { sql } from 'kysely';
import type { Tx } from '../doors.ts';
import type { ScreenshotGap, ScreenshotSource } from '../../lib/domain.ts';
import { readMoment } from '../../lib/recording/moment-reader.ts';

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
 * The chunks a replay of `at` through `until` reads: from the last one holding a full snapshot that
 * began at or before `at` (and before chunk `beforeSeq`, when a later anchor's snapshot proved to
 * come after the moment) through the first that ends at or after `until`; at most `limit` chunks.
 * None when the recording ended more than `RECORDING_GAP_MS` before `at`: the last state recorded
 * is then no picture of the moment.
 */
async function chunksForMoment(
  tx: Tx,
  sessionId: string,
  window: { readonly at: Date; readonly until: Date },
  options: { readonly beforeSeq: number | null; readonly limit: number },
): Promise<{ readonly seq: number; readonly data: Buffer }[] | 'too_many'> {
  const { at, until } = window;
  const coveredFrom = new Date(at.getTime() - RECORDING_GAP_MS);
  const { rows } = await sql<{ seq: number; data: Buffer }>`
    with anchor as (
      select max(seq) as seq from session_recording_chunks
      where session_id = ${sessionId}::uuid and has_full_snapshot and started_at <= ${at}
        and (${options.beforeSeq}::int4 is null or seq < ${options.beforeSeq}::int4)
        and exists (select 1 from session_recording_chunks r
                    where r.session_id = ${sessionId}::uuid and r.ended_at >= ${coveredFrom})
    ), through as (
      select min(c.seq) as seq from session_recording_chunks c, anchor a
      where c.session_id = ${sessionId}::uuid and c.seq >= a.seq and c.ended_at >= ${until}
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
 * How long before a moment the recording may have ended and still picture it: a page that changes
 * nothing sends nothing, but a recording that stopped long before (paused, another tab) is stale.
 */
const RECORDING_GAP_MS = 10_000;

/** Runs a query in a transaction of its own, through the caller's door (row-level security applies). */
export type InTransaction = <T>(query: (tx: Tx) => Promise<T>) => Promise<T>;

/**
 * The events replaying the session's recording from the last full snapshot at or before `at`
 * through `until` (default: `at`); null when no recording covers the moment, a chunk cannot be
 * read, or the replay would be too long. A chunk that began before the moment may hold its full
 * snapshot after it: then the chunks from the snapshot before. The chunks are fetched in short
 * transactions and read after them (on the moment reader's thread), so no connection waits on it.
 */
export async function momentEvents(
  inTransaction: InTransaction,
  sessionId: string,
  at: Date,
  until: Date = at,
): Promise<readonly unknown[] | null> {
  let beforeSeq: number | null = null;
  for (let tries = 0; tries < 2; tries++) {
    const chunks = await inTransaction((tx) =>
      chunksForMoment(tx, sessionId, { at, until }, { beforeSeq, limit: MAX_MOMENT_CHUNKS }),
    );
    if (chunks === 'too_many' || chunks.length === 0) return null;
    // A reader that failed (its thread stopped) is no replay, as a chunk that no longer reads.
    const moment = await readMoment(chunks, at.getTime(), until.getTime()).catch(() => null);
    if (!moment) return null;
    if (moment.kind === 'events') return moment.events;
    // A chunk the API measured but that no longer reads, or too much to replay: nothing to show.
    if (moment.kind !== 'no_snapshot') return null;
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

/** A row's columns when it has no picture, and why. */
const noPicture = (gap: ScreenshotGap): ReturnType<typeof pictureOf> => ({
  source: 'none',
  png: null,
  width: null,
  height: null,
  alt_text: null,
  page_url: null,
  outlined: false,
  gap,
});

/** A row's columns with its picture. */
const pictureOf = (record: Extract<FindingScreenshotRecord, { png: Buffer }>) => ({
  source: record.source as ScreenshotSource,
  png: record.png as Buffer | null,
  width: record.width as number | null,
  height: record.height as number | null,
  alt_text: record.altText as string | null,
  page_url: record.pageUrl,
  outlined: record.outlined,
  gap: null as ScreenshotGap | null,
});

/** Stores a finding's picture (or why it has none); a retried capture replaces its own row. */
export async function saveFindingScreenshot(
  tx: Tx,
  finding: { readonly sessionId: string; readonly noteId: string; readonly moment: Date },
  record: FindingScreenshotRecord,
): Promise<void> {
  let values = record.source === 'none' ? noPicture(record.gap) : pictureOf(record);
  // A replayed picture is kept only while its recording is: the chunks are held until this commits,
  // so an erasure either comes first (nothing replayed is stored) or blanks it after.
  if (record.source === 'replay') {
    const { rows } = await sql`select 1 from session_recording_chunks
      where session_id = ${finding.sessionId}::uuid limit 1 for share`.execute(tx);
    if (rows.length === 0) values = noPicture('recording_erased');
  }
  await tx
    .insertInto('finding_screenshots')
    .values({ session_id: finding.sessionId, note_id: finding.noteId, moment: finding.moment, ...values })
    .onConflict((conflict) =>
      conflict
        .column('note_id')
        .doUpdateSet({ ...values, captured_at: sql`now()` })
        // What was erased stays erased.
        .where('finding_screenshots.gap', 'is distinct from', 'recording_erased'),
    )
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
    .set(noPicture('recording_erased'))
    .where('session_id', '=', sessionId)
    .where('source', '=', 'replay')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
