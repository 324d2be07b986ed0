import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { findReport } from '../../db/repositories/reports.ts';
import { findStudy } from '../../db/repositories/studies.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { readAggregate } from '../reports/aggregate-commands.ts';
import { aggregateStatusResponse } from '../reports/aggregate.schema.ts';
import { renderReport } from '../reports/report-rendering.ts';
import { Layout } from './layout.tsx';
import type { PageRouter, SignedInRequest } from './page-routes.ts';
import { renderPage } from './render.ts';
import { ReportPage } from './report-page.tsx';
import { studyPath } from './study-page.tsx';
import { StudyReportPage, studyReportWaiting } from './study-report-page.tsx';

const idParams = z.object({ id: z.uuid() });

function idOf(request: SignedInRequest, resource: string): string {
  const params = idParams.safeParse(request.ctx.params);
  if (!params.success) throw notFound(resource);
  return params.data.id;
}

/**
 * The reports as pages: a tester report (`/reports/:id`, its tester and the study's organization,
 * as row-level security decides, with the rendering of `GET /api/reports/:id`) and a study's report
 * (`/dashboard/jobs/:id/report`, its organization, through `readAggregate` of
 * `GET /api/reports/job/:id`). Anyone else gets the 404 page.
 */
export function mountReportPages(pages: PageRouter, db: Db): void {
  pages.signedIn('GET', '/reports/:id', async (request) => {
    const id = idOf(request, 'Report');
    const found = await asUser(db, request.principal.claims, async (tx) => {
      const row = await findReport(tx, id);
      return row && { row, study: (await findStudy(tx, row.study_id))?.study };
    });
    if (!found) throw notFound('Report');
    renderPage(
      request.ctx,
      <ReportPage
        csrf={request.csrf}
        viewer={request.viewer}
        studyTitle={found.study?.title ?? 'a study'}
        rendered={renderReport(found.row, { format: 'structured', includeScreenshots: false })}
      />,
    );
  });

  pages.signedIn('GET', '/dashboard/jobs/:id/report', async (request) => {
    const id = idOf(request, 'Study');
    // Testers read a study they test, but its report is the organization's.
    if (request.viewer.role === 'tester') throw notFound('Study');
    const title = await asUser(
      db,
      request.principal.claims,
      async (tx) => (await findStudy(tx, id))?.study.title,
    );
    if (title === undefined) throw notFound('Study');
    const aggregate = await readAggregate({ db }, request.principal, id).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    });
    // The stored content read as GET /api/reports/job/:id answers it (its response schema).
    const report = aggregate && aggregateStatusResponse.parse(aggregate).report;
    const { csrf, viewer } = request;
    if (!report) {
      return renderPage(
        request.ctx,
        <Layout title={`Study report: ${title}`} viewer={viewer} csrf={csrf}>
          <p>{studyReportWaiting(aggregate?.status, aggregate?.error ?? null)}</p>
          <p>
            <a href={studyPath(id)}>Back to the study</a>
          </p>
        </Layout>,
      );
    }
    renderPage(
      request.ctx,
      <StudyReportPage csrf={csrf} viewer={viewer} studyId={id} studyTitle={title} report={report} />,
    );
  });
}
