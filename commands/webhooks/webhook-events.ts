import type { WebhookEvent } from '../../db/repositories/webhooks.ts';
import { payoutPaidKey } from '../../lib/webhook-keys.ts';

// Each event an organization's endpoints can hear, as recorded beside the change it announces.
// `data.object` carries the ids an integration needs to fetch the resource through the API and
// what changed; the dedupe key makes the event once per fact, whoever records it again.

export function studyEvent(
  type: 'study.activated' | 'study.completed',
  study: { readonly id: string; readonly organizationId: string },
  at: Date,
): WebhookEvent {
  const status = type === 'study.activated' ? 'active' : 'completed';
  return {
    organizationId: study.organizationId,
    type,
    object: { studyId: study.id, status },
    dedupeKey: `${type}:${study.id}`,
    occurredAt: at,
  };
}

export function sessionEvent(
  type: 'session.completed' | 'session.confirmed',
  session: { readonly id: string; readonly organization_id: string; readonly study_id: string },
  at: Date,
): WebhookEvent {
  return {
    organizationId: session.organization_id,
    type,
    object: {
      sessionId: session.id,
      studyId: session.study_id,
      status: type === 'session.completed' ? 'completed' : 'confirmed',
    },
    dedupeKey: `${type}:${session.id}`,
    occurredAt: at,
  };
}

/** A tester report written by Agent 3 (GET /api/reports/:id). */
export function reportReadyEvent(
  report: { readonly reportId: string; readonly jobId: string },
  session: { readonly id: string; readonly organization_id: string; readonly study_id: string },
  at: Date,
): WebhookEvent {
  return {
    organizationId: session.organization_id,
    type: 'report.ready',
    object: { reportId: report.reportId, sessionId: session.id, studyId: session.study_id },
    dedupeKey: `report.ready:${report.jobId}`,
    occurredAt: at,
  };
}

/** A study report written by Agent 4 (GET /api/reports/job/:id, with the job's id). */
export function studyReportReadyEvent(
  job: { readonly id: string; readonly organization_id: string; readonly study_id: string },
  studyReportId: string,
  at: Date,
): WebhookEvent {
  return {
    organizationId: job.organization_id,
    type: 'study_report.ready',
    object: { studyReportId, jobId: job.id, studyId: job.study_id },
    dedupeKey: `study_report.ready:${job.id}`,
    occurredAt: at,
  };
}

/** A full audit whose report was emailed (GET /api/audits/:auditJobId). */
export function auditCompletedEvent(
  audit: { readonly id: string; readonly organizationId: string; readonly url: string },
  at: Date,
): WebhookEvent {
  return {
    organizationId: audit.organizationId,
    type: 'audit.completed',
    object: { auditId: audit.id, url: audit.url, status: 'complete' },
    dedupeKey: `audit.completed:${audit.id}`,
    occurredAt: at,
  };
}

/** A tester's payout the provider reported paid. */
export function payoutPaidEvent(
  payment: {
    readonly id: string;
    readonly organization_id: string;
    readonly study_id: string;
    readonly session_id: string;
    readonly amount: string;
    readonly currency: string;
    readonly provider_payout_id: string | null;
  },
  at: Date,
): WebhookEvent {
  return {
    organizationId: payment.organization_id,
    type: 'payout.paid',
    object: {
      paymentId: payment.id,
      sessionId: payment.session_id,
      studyId: payment.study_id,
      amount: Number(payment.amount),
      currency: payment.currency,
    },
    dedupeKey: payoutPaidKey(payment.provider_payout_id ?? `payment-${payment.id}`),
    occurredAt: at,
  };
}
