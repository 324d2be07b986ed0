import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { readAggregate, requestAggregate } from '../../commands/reports/aggregate-commands.ts';
import { aggregateJobResponse, aggregateStatusResponse, studyIdParams } from './aggregate.schema.ts';
import { aggregateRequestBody } from '../../commands/reports/aggregate.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

/** Agent 4, the cross-test analysis of a study (spec, AI agents), and its polling endpoint (DESIGN.md). */
export function aggregateRoutes(deps: CommandContext): RouteDefinition[] {
  const common = {
    tag: 'Reports',
    auth: 'user',
    roles: ['business', 'admin'],
    params: studyIdParams,
    resource: 'Study',
  } as const;
  return [
    defineRoute({
      ...common,
      method: 'POST',
      path: '/api/reports/job/:id',
      summary: "Agent 4: the study-level report across its testers' reports (after every report is complete)",
      body: aggregateRequestBody,
      response: aggregateJobResponse,
      status: 202,
      errors: [409],
      handler: async ({ params, body, principal }) => ({
        data: await requestAggregate(deps, principal, params.id, body),
      }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/api/reports/job/:id',
      summary: "The study's latest aggregate job and, once complete, its study-level report",
      response: aggregateStatusResponse,
      handler: async ({ params, principal }) => ({ data: await readAggregate(deps, principal, params.id) }),
    }),
  ];
}
