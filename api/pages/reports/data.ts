import { z } from 'zod';
import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { findReport } from '../../../db/repositories/reports.ts';
import { listFindingScreenshots } from '../../../db/repositories/finding-screenshots.ts';
import { hasRecording } from '../../../db/repositories/recordings.ts';
import { findStudy } from '../../../db/repositories/studies.ts';
import type { SessionPrincipal } from '../../../commands/principal.ts';
import { ApiError, notFound } from '../../../lib/errors.ts';
import { readAggregate } from '../../../commands/reports/aggregate-commands.ts';
import { auditOfStudy } from '../../../commands/studies/study-audit.ts';
import { aggregateStatusResponse } from '../../reports/aggregate.schema.ts';
import type { SignedInRequest } from '../shared/page-routes.ts';

const idParams = z.object({ id: z.uuid() });

/** The page's `:id`; anything but a UUID is the 404 page. */
export function idOf(request: SignedInRequest, resource: string): string {
  const params = idParams.safeParse(request.ctx.params);
  if (!params.success) throw notFound(resource);
  return params.data.id;
}

/** A tester report, its study and its findings' pictures, as row-level security lets the person see them. */
export function loadReport(db: Db, principal: SessionPrincipal, reportId: string) {
  return asUser(db, principal.claims, async (tx) => {
    const row = await findReport(tx, reportId);
    return (
      row && {
        row,
        study: (await findStudy(tx, row.study_id))?.study,
        screenshots: await listFindingScreenshots(tx, row.session_id),
        // Whether the person may watch a recording of the session: then each finding has a replay.
        recorded: await hasRecording(tx, row.session_id),
      }
    );
  });
}

/**
 * A study, the audit of its prototype (`auditOfStudy`) and the state of its report (`readAggregate`, as `GET /api/reports/job/:id`
 * answers it); undefined when the person may not see the study.
 */
export async function loadStudyReport(db: Db, principal: SessionPrincipal, studyId: string) {
  const found = await asUser(db, principal.claims, async (tx) => {
    const record = await findStudy(tx, studyId);
    return record && { study: record.study, audit: await auditOfStudy(tx, studyId) };
  });
  if (!found) return undefined;
  const aggregate = await readAggregate({ db }, principal, studyId).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  });
  // The stored content read as GET /api/reports/job/:id answers it (its response schema).
  const report = aggregate && aggregateStatusResponse.parse(aggregate).report;
  return { title: found.study.title, study: found.study, audit: found.audit, aggregate, report };
}
