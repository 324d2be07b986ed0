import { asUser } from '../../db/doors.ts';
import { findAuditJob, listAuditPages } from '../../db/repositories/audits.ts';
import { notFound } from '../../lib/errors.ts';
import type { RequestState } from '../http/state.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { queueFullAudit, runInstantAudit } from '../../commands/audits/audit-commands.ts';
import {
  auditJobIdParams,
  auditJobStatusResponse,
  fullAuditJobResponse,
  instantAuditResponse,
} from './audits.schema.ts';
import { fullAuditBody, instantAuditBody } from '../../commands/audits/audit.schema.ts';
import { toAuditJob, toAuditJobStatus } from './audit-view.ts';
import type { CommandContext } from '../../commands/context.ts';

export function auditRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/audits/instant',
      tag: 'Audits',
      summary: 'Audit one page in a real browser and answer with its score, grade and issues',
      auth: 'user',
      body: instantAuditBody,
      response: instantAuditResponse,
      errors: [503],
      handler: async ({ body, principal, ctx }) => ({
        data: await runInstantAudit(deps, principal, body, (ctx.state as RequestState).receivedAt),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/audits/full',
      tag: 'Audits',
      summary: 'Queue a full audit (optionally crawling same-origin pages); the report is emailed',
      auth: 'user',
      body: fullAuditBody,
      response: fullAuditJobResponse,
      status: 202,
      handler: async ({ body, principal }) => ({
        data: toAuditJob(await queueFullAudit(deps, principal, body)),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/audits/:auditJobId',
      tag: 'Audits',
      summary: "A full audit's status, progress (pages done of planned) and, once complete, its result",
      auth: 'user',
      params: auditJobIdParams,
      resource: 'Audit job',
      response: auditJobStatusResponse,
      handler: async ({ params, principal }) => {
        const found = await asUser(deps.db, principal.claims, async (tx) => {
          const row = await findAuditJob(tx, params.auditJobId);
          return row && { row, pages: row.result ? await listAuditPages(tx, row.id) : [] };
        });
        if (!found) throw notFound('Audit job');
        return { data: toAuditJobStatus(found.row, found.pages) };
      },
    }),
  ];
}
