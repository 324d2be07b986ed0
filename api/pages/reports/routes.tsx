import type { Db } from '../../../db/connection.ts';
import { notFound } from '../../../lib/errors.ts';
import { renderReport } from '../../reports/report-rendering.ts';
import { reportPath, studyReportPath } from '../paths.ts';
import type { PageRouter } from '../shared/page-routes.ts';
import { renderPage } from '../shared/render.ts';
import { idOf, loadReport, loadStudyReport } from './data.ts';
import { ReportPage, StudyReportPage, StudyReportWaitingPage } from './view.tsx';

/**
 * The reports as pages: a tester report (`/reports/:id`, its tester and the study's organization,
 * as row-level security decides, with the rendering of `GET /api/reports/:id`) and a study's report
 * (`/dashboard/jobs/:id/report`, its organization, through `readAggregate` of
 * `GET /api/reports/job/:id`). Anyone else gets the 404 page.
 */
export function mountReportPages(pages: PageRouter, db: Db): void {
  pages.signedIn('GET', reportPath(':id'), async (request) => {
    const id = idOf(request, 'Report');
    const found = await loadReport(db, request.principal, id);
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

  pages.signedIn('GET', studyReportPath(':id'), async (request) => {
    const id = idOf(request, 'Study');
    // Testers read a study they test, but its report is the organization's.
    if (request.viewer.role === 'tester') throw notFound('Study');
    const found = await loadStudyReport(db, request.principal, id);
    if (!found) throw notFound('Study');
    const { title, aggregate, report } = found;
    const { csrf, viewer } = request;
    if (!report) {
      return renderPage(
        request.ctx,
        <StudyReportWaitingPage
          csrf={csrf}
          viewer={viewer}
          studyId={id}
          studyTitle={title}
          status={aggregate?.status}
          error={aggregate?.error ?? null}
        />,
      );
    }
    renderPage(
      request.ctx,
      <StudyReportPage csrf={csrf} viewer={viewer} studyId={id} studyTitle={title} report={report} />,
    );
  });
}
