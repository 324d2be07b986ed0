import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Tx } from '../../../db/doors.ts';
import { email, hex64, unique } from './unique.ts';

/** Rows outside the study life cycle: provider events, public tables, audits and authentication. */
export interface PlatformRows {
  readonly providerEvent: string;
  readonly booking: string;
  readonly statsSnapshot: string;
  readonly outboxMessage: string;
  readonly audit: string;
  readonly auditJob: string;
  readonly auditPage: string;
  readonly screenshotIssue: string;
  readonly refreshToken: string;
  readonly apiToken: string;
  readonly oneTimeToken: string;
  readonly oauthState: string;
  readonly identity: string;
  readonly loginFailure: string;
  readonly webhookEndpoint: string;
  readonly webhookEvent: string;
  readonly webhookDelivery: string;
  /** An event not delivered yet: the matrix's fresh delivery rows are of it. */
  readonly webhookEventUndelivered: string;
}

export interface PlatformParents {
  readonly organizationA: string;
  readonly businessA: string;
  readonly testerWith: string;
  readonly finishedStudy: string;
}

const id = (row: { id: string }) => row.id;

export async function createPlatformRows(tx: Tx, parents: PlatformParents): Promise<PlatformRows> {
  const { organizationA, businessA, testerWith, finishedStudy } = parents;
  const providerEvent = unique('evt');
  await tx
    .insertInto('provider_events')
    .values({ id: providerEvent, provider: 'scheduling', type: 'invitee.created', payload: {} })
    .execute();
  const booking = await tx
    .insertInto('review_call_bookings')
    .values({
      organization_id: organizationA,
      study_id: finishedStudy,
      provider_booking_id: unique('booking'),
      provider_event_id: providerEvent,
      invitee_email: 'owner@example.com',
      starts_at: '2030-02-01T10:00:00Z',
      ends_at: '2030-02-01T10:30:00Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const statsSnapshot = await tx
    .insertInto('community_stats_snapshots')
    .values({
      total_testers: 3,
      active_testers: 2,
      total_studies_completed: 1,
      total_sessions_completed: 1,
      cached_at: '2030-01-01T00:00:00Z',
      next_refresh_at: '2030-01-08T00:00:00Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const outboxMessage = await tx
    .insertInto('notification_outbox')
    .values({
      channel: 'email',
      recipient: 'owner@example.com',
      user_id: businessA,
      kind: 'report_ready',
      body: 'Ready',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);

  const requested = { organization_id: organizationA, requested_by: businessA, url: 'https://example.com/' };
  const audit = await tx
    .insertInto('audits')
    .values({ ...requested, score: 90, grade: 'A', result: JSON.stringify({ issueCounts: {} }) })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const auditJob = await tx
    .insertInto('audit_jobs')
    .values({
      ...requested,
      crawl: false,
      max_pages: 1,
      viewport_width: 1280,
      viewport_height: 800,
      recipients: ['owner@example.com'],
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const auditPage = await tx
    .insertInto('audit_pages')
    .values({
      audit_job_id: auditJob,
      position: 1,
      url: 'https://example.com/',
      score: 90,
      grade: 'A',
      issue_counts: JSON.stringify({}),
      issues: JSON.stringify([]),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const screenshotIssue = 'color-contrast-1';
  await tx
    .insertInto('audit_screenshots')
    .values({ audit_page_id: auditPage, issue_id: screenshotIssue, image: Buffer.from('png') })
    .execute();

  const issued = { created_at: '2030-01-01T00:00:00Z', expires_at: '2030-01-01T00:15:00Z' };
  const refreshToken = await tx
    .insertInto('refresh_tokens')
    .values({
      user_id: businessA,
      family_id: randomUUID(),
      token_hash: hex64(),
      ...issued,
      family_expires_at: '2030-01-31T00:00:00Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const apiToken = await tx
    .insertInto('api_tokens')
    .values({
      organization_id: organizationA,
      created_by: businessA,
      name: 'CI',
      scope: 'read',
      token_hash: hex64(),
      token_prefix: 'uat_abcdefgh',
      created_at: issued.created_at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const oneTimeToken = await tx
    .insertInto('one_time_tokens')
    .values({ user_id: businessA, purpose: 'magic_link', token_hash: hex64(), ...issued })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const oauthState = hex64();
  await tx
    .insertInto('oauth_states')
    .values({ state_hash: oauthState, provider: 'p1', code_verifier: 'v'.repeat(43), ...issued })
    .execute();
  const identity = await tx
    .insertInto('user_identities')
    .values({ user_id: testerWith, provider: 'p1', subject: unique('sub') })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const loginFailure = email('locked');
  await tx
    .insertInto('login_failures')
    .values({ email: loginFailure, failure_count: 3, last_failure_at: issued.created_at })
    .execute();
  const webhookEndpoint = await tx
    .insertInto('webhook_endpoints')
    .values({
      organization_id: organizationA,
      created_by: businessA,
      url: 'https://hooks.example/usability',
      events: sql<['study.completed']>`array['study.completed']`,
      secret: `whsec_${hex64()}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const webhookEvent = await tx
    .insertInto('webhook_events')
    .values({
      organization_id: organizationA,
      type: 'study.completed',
      object: JSON.stringify({ studyId: finishedStudy, status: 'completed' }),
      dedupe_key: unique('study.completed'),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const webhookEventUndelivered = await tx
    .insertInto('webhook_events')
    .values({
      organization_id: organizationA,
      type: 'study.activated',
      object: JSON.stringify({ studyId: finishedStudy, status: 'active' }),
      dedupe_key: unique('study.activated'),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const webhookDelivery = await tx
    .insertInto('webhook_deliveries')
    .values({ event_id: webhookEvent, endpoint_id: webhookEndpoint, organization_id: organizationA })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  return {
    webhookEndpoint,
    webhookEvent,
    webhookDelivery,
    webhookEventUndelivered,
    providerEvent,
    booking,
    statsSnapshot,
    outboxMessage,
    audit,
    auditJob,
    auditPage,
    screenshotIssue,
    refreshToken,
    apiToken,
    oneTimeToken,
    oauthState,
    identity,
    loginFailure,
  };
}
