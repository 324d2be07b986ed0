import { asUser } from '../../db/doors.ts';
import { findStudy, listStudies, variantLabelsOf } from '../../db/repositories/studies.ts';
import { notFound } from '../../lib/errors.ts';
import { offsetOf, pageMetadata } from '../../lib/validation/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { validateHeader } from '../../lib/validation/validate.ts';
import { createStudy } from '../../commands/studies/create-study.ts';
import {
  createStudyResponse,
  studyAuditResponse,
  studyIdParams,
  studyResponse,
  studyResultsResponse,
} from './jobs.schema.ts';
import { studyAudit } from '../../commands/studies/study-audit.ts';
import { toStudyAudit } from './study-audit-view.ts';
import { studyResults } from '../../commands/studies/study-results.ts';
import {
  createStudyBody,
  idempotencyKeyHeader,
  listStudiesQuery,
  updateStudyBody,
} from '../../commands/studies/study.schema.ts';
import { toCreatedStudy, toStudy } from './study-view.ts';
import { updateStudy } from '../../commands/studies/update-study.ts';
import type { CommandContext } from '../../commands/context.ts';

export function jobRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/jobs',
      tag: 'Studies',
      summary: 'Create a study (draft) and start its workflow',
      auth: 'user',
      roles: ['business'],
      body: createStudyBody,
      headers: { 'Idempotency-Key': 'Makes a retried create return the same study instead of a second one' },
      response: createStudyResponse,
      status: 201,
      handler: async ({ body, principal, ctx }) => {
        // A header that is present but blank is a mistake to report, not a request without a key.
        const header = ctx.headers['idempotency-key'];
        const key =
          header === undefined ? undefined : validateHeader('Idempotency-Key', idempotencyKeyHeader, header);
        const { row, variantLabels, replayed } = await createStudy(deps, principal, body, key);
        if (replayed) ctx.set('Idempotent-Replayed', 'true');
        return { data: toCreatedStudy(row, variantLabels) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/jobs',
      tag: 'Studies',
      summary: "List the caller's studies, newest first",
      auth: 'user',
      query: listStudiesQuery,
      response: createStudyResponse.array(),
      paginated: true,
      handler: async ({ query, principal }) =>
        asUser(deps.db, principal.claims, async (tx) => {
          const { rows, total } = await listStudies(
            tx,
            { status: query.status, limit: query.limit, offset: offsetOf(query) },
            principal.claims,
          );
          const labels = await variantLabelsOf(
            tx,
            rows.map((row) => row.id),
          );
          return {
            data: rows.map((row) => toCreatedStudy(row, labels.get(row.id) ?? [])),
            metadata: pageMetadata(query, total),
          };
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/jobs/:id',
      tag: 'Studies',
      summary: 'Read one study with its tasks, targeting, variants and settings',
      auth: 'user',
      params: studyIdParams,
      resource: 'Study',
      response: studyResponse,
      handler: async ({ params, principal }) => {
        const record = await asUser(deps.db, principal.claims, (tx) => findStudy(tx, params.id));
        if (!record) throw notFound('Study');
        return { data: toStudy(record) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/jobs/:id/results',
      tag: 'Studies',
      summary:
        'Per-task results, live while the study runs: completion rate, time on task and ease, overall, by variant and by kind of tester (the owning organization and admins)',
      auth: 'user',
      roles: ['business', 'admin'],
      params: studyIdParams,
      resource: 'Study',
      response: studyResultsResponse,
      handler: async ({ params, principal }) => ({ data: await studyResults(deps, principal, params.id) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/jobs/:id/audit',
      tag: 'Studies',
      summary:
        "The audit of the study's prototype beside its testers' findings, per WCAG criterion: met by both, by people only, found by the audit only (the owning organization and admins)",
      auth: 'user',
      roles: ['business', 'admin'],
      params: studyIdParams,
      resource: 'Study',
      response: studyAuditResponse,
      handler: async ({ params, principal }) => ({
        data: toStudyAudit(params.id, await studyAudit(deps, principal, params.id)),
      }),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/jobs/:id',
      tag: 'Studies',
      summary: 'Pause, resume or archive a study; edit title and description while draft',
      auth: 'user',
      roles: ['business', 'admin'],
      params: studyIdParams,
      resource: 'Study',
      body: updateStudyBody,
      response: studyResponse,
      errors: [409],
      handler: async ({ params, body, principal }) => ({
        data: toStudy(await updateStudy(deps, principal, params.id, body)),
      }),
    }),
  ];
}
