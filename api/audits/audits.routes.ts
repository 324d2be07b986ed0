import { asUser } from '../../db/doors.ts';
import { findAuditJob, findInstantAudit, listAuditPages, listAudits } from '../../db/repositories/audits.ts';
import { offsetOf, pageMetadata } from '../../lib/validation/pagination.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { RequestState } from '../http/state.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { queueFullAudit, runInstantAudit } from '../../commands/audits/audit-commands.ts';
import {
  auditIdParams,
  auditJobIdParams,
  auditListItem,
  auditListQuery,
  auditJobStatusResponse,
  fullAuditJobResponse,
  instantAuditResponse,
} from './audits.schema.ts';
import { fullAuditBody, instantAuditBody } from '../../commands/audits/audit.schema.ts';
import {
  finishedFullAudit,
  finishedInstantAudit,
  instantAuditPath,
  toAuditJob,
  toAuditJobStatus,
  toAuditListItem,
  toInstantAudit,
} from './audit-view.ts';
import { auditAnswer, AUDIT_DOCUMENTS, auditFormatQuery } from './formats/audit-answer.ts';
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
      query: auditFormatQuery,
      documents: AUDIT_DOCUMENTS,
      errors: [503],
      handler: async ({ body, query, principal, ctx }) => {
        const row = await runInstantAudit(deps, principal, body, (ctx.state as RequestState).receivedAt);
        return auditAnswer(query.format, toInstantAudit(row), instantAuditPath(row.id), () =>
          finishedInstantAudit(row),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/audits',
      tag: 'Audits',
      summary:
        "The audits the caller may read (its organization's, or its own), instant and full, newest first; by URL with url",
      auth: 'user',
      query: auditListQuery,
      response: auditListItem.array(),
      paginated: true,
      handler: async ({ query, principal }) => {
        const { rows, total } = await asUser(deps.db, principal.claims, (tx) =>
          listAudits(tx, { url: query.url, limit: query.limit, offset: offsetOf(query) }),
        );
        return { data: rows.map(toAuditListItem), metadata: pageMetadata(query, total) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/audits/instant/:auditId',
      tag: 'Audits',
      summary: "An instant audit's result as it was answered, in any of the formats",
      auth: 'user',
      params: auditIdParams,
      query: auditFormatQuery,
      resource: 'Audit',
      response: instantAuditResponse,
      documents: AUDIT_DOCUMENTS,
      handler: async ({ params, query, principal }) => {
        const row = await asUser(deps.db, principal.claims, (tx) => findInstantAudit(tx, params.auditId));
        if (!row) throw notFound('Audit');
        return auditAnswer(query.format, toInstantAudit(row), instantAuditPath(row.id), () =>
          finishedInstantAudit(row),
        );
      },
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
      query: auditFormatQuery,
      resource: 'Audit job',
      response: auditJobStatusResponse,
      documents: AUDIT_DOCUMENTS,
      errors: [409],
      handler: async ({ params, query, principal }) => {
        const found = await asUser(deps.db, principal.claims, async (tx) => {
          const row = await findAuditJob(tx, params.auditJobId);
          return row && { row, pages: row.result ? await listAuditPages(tx, row.id) : [] };
        });
        if (!found) throw notFound('Audit job');
        const { row, pages } = found;
        const status = toAuditJobStatus(row, pages);
        if (query.format !== 'json' && (!status.result || !row.completed_at))
          throw conflict(
            `The audit job is ${row.status}: format ${query.format} is answered once it is completed (format=json shows its progress)`,
          );
        return auditAnswer(query.format, status, `/api/audits/${row.id}`, () =>
          finishedFullAudit(row, pages),
        );
      },
    }),
  ];
}
