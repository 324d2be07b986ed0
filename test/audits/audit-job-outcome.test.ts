import assert from 'node:assert/strict';
import type { BrowserPool } from '../../activities/audits/browser-pool.ts';
import { createAuditActivities } from '../../activities/audits/audit-activities.ts';
import { asSystem } from '../../db/doors.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';

describe("a full audit's recorded outcome", () => {
  const activities = createAuditActivities({
    db: serviceDatabase(),
    pool: {} as BrowserPool, // never reached: only the outcome is recorded
    email: { destination: 'nowhere', send: () => Promise.resolve(), close() {} },
    urlPolicy: { allowPrivate: false, allowedHosts: [] },
    serviceTaskQueue: 'unused',
    credentialsSecret: 'unused',
  });

  async function auditJob(status: 'running' | 'complete'): Promise<string> {
    const business = await createBusiness('pro');
    const row = await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('audit_jobs')
        .values({
          organization_id: business.organizationId,
          requested_by: business.userId,
          url: 'https://example.com/',
          crawl: false,
          max_pages: 1,
          viewport_width: 1280,
          viewport_height: 800,
          recipients: ['owner@example.com'],
          status,
          ...(status === 'complete'
            ? {
                completed_at: new Date(),
                result: JSON.stringify({ score: 90 }),
                report_delivered_to: ['owner@example.com'],
              }
            : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    return row.id;
  }
  const statusOf = async (id: string) =>
    (
      await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('audit_jobs')
          .select(['status', 'error'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow(),
      )
    ).status;

  it('a failure recorded after its report went out leaves it complete', async () => {
    const id = await auditJob('complete');
    await activities.recordAuditFailure({ auditJobId: id, error: 'the last retry failed after the commit' });
    assert.equal(await statusOf(id), 'complete');
  });

  it('a running job that fails is recorded failed, with the reason', async () => {
    const id = await auditJob('running');
    await activities.recordAuditFailure({ auditJobId: id, error: 'the page could not be loaded' });
    assert.equal(await statusOf(id), 'failed');
  });
});
