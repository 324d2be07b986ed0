import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { tableCells, type TableCells } from './matrix.ts';
import { ADMIN, OWNER_ORG, systemRow } from './tables-core.ts';
import { hex64, unique } from './unique.ts';

export const WEBHOOK_TABLES: readonly TableCells[] = [
  tableCells({
    table: 'webhook_endpoints',
    rule: "webhook endpoints: the organization's owners see, register (under their own id), change and delete them; never other organizations",
    rows: [
      {
        key: (f) => ({ id: f.webhookEndpoint }),
        touch: 'description',
        select: OWNER_ORG,
        update: OWNER_ORG,
        delete: OWNER_ORG,
      },
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f, actor) =>
        into.values({
          organization_id: f.organizationA,
          created_by: actor.sub,
          url: 'https://hooks.example/another',
          events: sql<['payout.paid']>`array['payout.paid']`,
          secret: `whsec_${hex64()}`,
        }),
    },
  }),
  tableCells({
    table: 'webhook_events',
    rule: "webhook events: written by the system; the organization's owners read them",
    rows: [systemRow({ key: (f) => ({ id: f.webhookEvent }), touch: 'type', select: OWNER_ORG })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          organization_id: f.organizationA,
          type: 'study.activated',
          object: JSON.stringify({ studyId: randomUUID() }),
          dedupe_key: unique('study.activated'),
        }),
    },
  }),
  tableCells({
    table: 'webhook_deliveries',
    rule: "webhook deliveries: written by the system; the organization's owners read their delivery log",
    rows: [systemRow({ key: (f) => ({ id: f.webhookDelivery }), touch: 'attempts', select: OWNER_ORG })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          event_id: f.webhookEventUndelivered,
          endpoint_id: f.webhookEndpoint,
          organization_id: f.organizationA,
        }),
    },
  }),
];
