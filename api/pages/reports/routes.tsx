import type { CommandContext } from '../../../commands/context.ts';
import { requestFindingScreenshots } from '../../../commands/reports/finding-screenshots.ts';
import { notFound } from '../../../lib/errors.ts';
import { renderReport } from '../../reports/report-rendering.ts';
import { reportPath, reportScreenshotsPath, studyReportPath } from '../paths.ts';
import type { PageRouter } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { idOf, loadReport, loadStudyReport } from './data.ts';
import { ReportPage, StudyReportPage, StudyReportWaitingPage } from './view.tsx';

/**
 * The reports as pages: a tester report (`/reports/:id`, its tester and the study's organization,
 * as row-level security decides, with the rendering of `GET /api/reports/:id`) and a study's report
 * (`/dashboard/jobs/:id/report`, its organization, through `readAggregate` of
 * `GET /api/reports/job/:id`). Anyone else gets the 404 page.
 */
export function mountReportPages(pages: PageRouter, commands: CommandContext): void {
  const { db } = commands;
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
        rendered={renderReport(
          found.row,
          { format: 'structured', includeScreenshots: true },
          found.screenshots,
        )}
        recorded={found.recorded}
      />,
      200,
      { framesSelf: found.recorded },
    );
  });

  // The pictures of the findings' moments, made in the background (as `includeScreenshots` asks).
  pages.signedIn('POST', reportScreenshotsPath(':id'), async (request) => {
    const id = idOf(request, 'Report');
    const found = await loadReport(db, request.principal, id);
    if (!found) throw notFound('Report');
    await requestFindingScreenshots(commands, found.row.session_id);
    seeOther(request.ctx, `${reportPath(id)}#findings`);
  });

  pages.signedIn('GET', studyReportPath(':id'), async (request) => {
    const id = idOf(request, 'Study');
    // Testers read a study they test, but its report is the organization's.
    if (request.viewer.role === 'tester') throw notFound('Study');
    const found = await loadStudyReport(db, request.principal, id);
    if (!found) throw notFound('Study');
    const { title, aggregate, report, study, audit } = found;
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
      <StudyReportPage
        csrf={csrf}
        viewer={viewer}
        studyId={id}
        studyTitle={title}
        report={report}
        prototype={{ audit, study }}
      />,
    );
  });
}
