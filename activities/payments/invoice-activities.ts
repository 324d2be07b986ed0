import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { completedCheckoutsBetween } from '../../db/repositories/checkout-sessions.ts';
import { businessMembersOf } from '../../db/repositories/contacts.ts';
import type { EmailSender } from '../../clients/email.ts';
import { sendEmailOnce } from './emails-once.ts';
import { formatMinorUnits } from '../../lib/money.ts';

export interface InvoiceActivityDependencies {
  readonly db: Db;
  readonly email: EmailSender;
}

export interface BillingPeriod {
  /** ISO timestamps; the period is [start, end). */
  readonly periodStart: string;
  readonly periodEnd: string;
}

const monthName = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The end-of-period invoice (spec, Email): one per organization with payments in the period. */
export function createInvoiceActivities({ db, email }: InvoiceActivityDependencies) {
  return {
    /**
     * Mails each organization whose checkouts completed in the period an invoice listing them,
     * to its business members. Once per organization, period and recipient: a re-run (a retried
     * activity, a manual trigger of the schedule) sends nothing twice.
     */
    async sendPeriodInvoices(period: BillingPeriod): Promise<{ organizations: number; emails: number }> {
      const from = new Date(period.periodStart);
      const to = new Date(period.periodEnd);
      const { lines, members } = await asSystem(db, async (tx) => {
        const lines = await completedCheckoutsBetween(tx, from, to);
        const organizations = [...new Set(lines.map((line) => line.organization_id))];
        const members = await businessMembersOf(tx, organizations);
        return { lines, members };
      });

      const byOrganization = new Map<string, typeof lines>();
      for (const line of lines)
        byOrganization.set(line.organization_id, [...(byOrganization.get(line.organization_id) ?? []), line]);
      let emails = 0;
      for (const [organizationId, charges] of byOrganization) {
        const totals = new Map<string, bigint>();
        for (const charge of charges) {
          totals.set(charge.currency, (totals.get(charge.currency) ?? 0n) + BigInt(charge.amount_total));
        }
        const text = [
          `Invoice for ${monthName(period.periodStart)} (${period.periodStart.slice(0, 10)} to ${period.periodEnd.slice(0, 10)}, end exclusive)`,
          ...charges.map(
            (charge) =>
              `- ${charge.completed_at!.toISOString().slice(0, 10)}  "${charge.title}" (${charge.tester_count} sessions)  ${formatMinorUnits(charge.amount_total, charge.currency)}  [${charge.id}]`,
          ),
          `Total: ${[...totals].map(([currency, total]) => formatMinorUnits(total.toString(), currency)).join(', ')}`,
          'Paid in full at checkout; this invoice is for your records.',
        ].join('\n');
        for (const member of members.filter((m) => m.organization_id === organizationId)) {
          const delivered = await sendEmailOnce(db, email, {
            dedupeKey: `invoice:${organizationId}:${period.periodStart}:${member.id}`,
            kind: 'invoice',
            userId: member.id,
            to: member.email,
            subject: `Invoice for ${monthName(period.periodStart)}`,
            text,
          });
          if (delivered) emails += 1;
        }
      }
      return { organizations: byOrganization.size, emails };
    },
  };
}

export type InvoiceActivities = ReturnType<typeof createInvoiceActivities>;
