import type { Db } from '../../../db/connection.ts';
import { DASHBOARD_PATH } from '../paths.ts';
import type { PageRouter } from '../shared/page-routes.ts';
import { renderPage } from '../shared/render.ts';
import { loadDashboard } from './data.ts';
import { DashboardPage } from './view.tsx';

/** `/dashboard`, where sign-in lands: what needs the person, by role. */
export function mountDashboardPage(pages: PageRouter, db: Db): void {
  pages.signedIn('GET', DASHBOARD_PATH, async (request) => {
    const data = await loadDashboard(db, request.principal);
    renderPage(request.ctx, <DashboardPage csrf={request.csrf} viewer={request.viewer} data={data} />);
  });
}
