import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createEmailSender } from '../../clients/email.ts';
import { createInvoiceActivities } from '../../activities/payments/invoice-activities.ts';
import { asSystem } from '../../db/doors.ts';
import { previousMonth } from '../../workflows/billing-period.ts';
import { BILLING_SCHEDULE_ID } from '../../workflows/messages/billing-period.ts';
import { ensureBillingSchedule } from '../../workers/billing-schedule.ts';
import { testDatabase } from '../support/database.ts';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { business, completedStudy, testerWithAccount, type Business } from './fixtures.ts';
import { startPaymentsHarness } from './harness.ts';

/** A checkout of the organization's study, completed at `at`. */
async function paidCheckout(owner: Business, at: string, amountTotal: number, currency = 'EUR') {
  const { jobId } = await completedStudy(owner, [await testerWithAccount()]);
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('checkout_sessions')
      .values({
        id: `cs_test_${randomUUID()}`,
        provider: 'stripe',
        organization_id: owner.organizationId,
        study_id: jobId,
        amount_total: amountTotal,
        currency,
        url: 'https://checkout.provider.test/pay',
        status: 'complete',
        expires_at: at,
        completed_at: at,
      })
      .execute(),
  );
}

describe('billing period: invoices by a Temporal Schedule', () => {
  let mail: MailCatcher;
  before(async () => {
    mail = await startMailCatcher();
  });
  after(() => mail.stop());

  it('the period is the calendar month (UTC) before the run', () => {
    assert.deepEqual(previousMonth(new Date('2031-03-01T00:00:05Z')), {
      periodStart: '2031-02-01T00:00:00.000Z',
      periodEnd: '2031-03-01T00:00:00.000Z',
    });
    assert.deepEqual(previousMonth(new Date('2031-01-01T00:00:00Z')).periodStart, '2030-12-01T00:00:00.000Z');
  });

  it('sendPeriodInvoices mails each organization with payments in the period, once, listing them', async () => {
    const active = await business();
    const idle = await business();
    await paidCheckout(active, '2031-05-03T10:00:00Z', 10_000);
    await paidCheckout(active, '2031-05-28T10:00:00Z', 4_500);
    await paidCheckout(active, '2031-06-01T00:00:00Z', 99_900); // the next period
    await paidCheckout(idle, '2031-04-30T23:59:59Z', 2_500); // the previous period
    const email = createEmailSender({
      smtpUrl: mail.url,
      from: 'Billing <billing@usability.example>',
      outboxDir: '.data/unused',
    });
    const invoices = createInvoiceActivities({ db: testDatabase(), email });
    const period = { periodStart: '2031-05-01T00:00:00.000Z', periodEnd: '2031-06-01T00:00:00.000Z' };

    const result = await invoices.sendPeriodInvoices(period);
    assert.deepEqual(result, { organizations: 1, emails: 1 });
    const invoice = await mail.waitFor(active.email);
    assert.equal(invoice.subject, 'Invoice for May 2031');
    assert.match(invoice.text ?? '', /100\.00 EUR/);
    assert.match(invoice.text ?? '', /45\.00 EUR/);
    assert.match(invoice.text ?? '', /Total: 145\.00 EUR/);
    assert.doesNotMatch(invoice.text ?? '', /999\.00/);
    assert.equal(
      mail.messages.some((m) => JSON.stringify(m.to).includes(idle.email)),
      false,
    );

    // A re-run (a retried activity, a manual trigger) sends nothing twice.
    assert.deepEqual(await invoices.sendPeriodInvoices(period), { organizations: 1, emails: 0 });
    email.close();
  });

  it('the schedule runs monthly at 00:00 UTC on the 1st, starts the billing workflow, and is created once', async () => {
    const { client } = await temporalEnvironment();
    await ensureBillingSchedule(client, 'billing-test-queue');
    await ensureBillingSchedule(client, 'billing-test-queue'); // a second worker start updates it
    const handle = client.schedule.getHandle(BILLING_SCHEDULE_ID);
    const description = await handle.describe();
    const [calendar] = description.spec.calendars ?? [];
    assert.deepEqual(
      {
        second: calendar?.second,
        minute: calendar?.minute,
        hour: calendar?.hour,
        dayOfMonth: calendar?.dayOfMonth,
        month: calendar?.month,
      },
      {
        second: [{ start: 0, end: 0, step: 1 }],
        minute: [{ start: 0, end: 0, step: 1 }],
        hour: [{ start: 0, end: 0, step: 1 }],
        dayOfMonth: [{ start: 1, end: 1, step: 1 }],
        month: [{ start: 'JANUARY', end: 'DECEMBER', step: 1 }],
      },
    );
    assert.equal(description.spec.timezone, 'UTC');
    assert.equal(description.action.type, 'startWorkflow');
    assert.equal(description.action.workflowType, 'billingPeriodWorkflow');
    assert.equal(description.action.taskQueue, 'billing-test-queue');
    const next = new Date(description.info.nextActionTimes[0]!);
    assert.deepEqual([next.getUTCDate(), next.getUTCHours(), next.getUTCMinutes()], [1, 0, 0]);
    const schedules = [];
    for await (const schedule of client.schedule.list())
      if (schedule.scheduleId === BILLING_SCHEDULE_ID) schedules.push(schedule);
    assert.equal(schedules.length, 1);
    await handle.delete();
  });
  it('triggered on the dev server, the schedule runs the billing workflow and the invoice mail arrives', async function () {
    this.timeout(120_000);
    // The harness's worker runs the workflow with the payment activities; its mail catcher receives.
    const h = await startPaymentsHarness({ local: true });
    try {
      const owner = await business();
      const now = new Date();
      const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
      await paidCheckout(owner, lastMonth.toISOString(), 12_300);
      await ensureBillingSchedule(h.temporal.client, h.taskQueue);
      const handle = h.temporal.client.schedule.getHandle(BILLING_SCHEDULE_ID);
      try {
        await handle.trigger();
        const invoice = await h.mail.waitFor(owner.email, 60_000);
        const month = lastMonth.toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
        assert.equal(invoice.subject, `Invoice for ${month}`);
        assert.match(invoice.text ?? '', /Total: 123\.00 EUR/);
      } finally {
        await handle.delete();
      }
    } finally {
      await h.stop();
    }
  });
});
