import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { testerContact } from '../../db/repositories/contacts.ts';
import { completedReportJob } from '../../db/repositories/agent-jobs.ts';
import { sessionForReview } from '../../db/repositories/sessions.ts';
import { queueForStudyContacts, queueForTester } from './queue-for-people.ts';

/**
 * The messages a study's milestones send (spec, "Messaging channel" and "Email"): the tester's
 * confirmation request once the findings await review, and the business's "report ready" once a
 * tester report or the study report exists. Each is queued once (its dedupe key); the workflow
 * that reached the milestone hands the returned ids to the notification workflow.
 */
export function createMilestoneActivities({ db, baseUrl }: { db: Db; baseUrl: string }) {
  return {
    /** The tester's link to `{BASE_URL}/sessions/:id/review`, where they review and confirm the findings. */
    async queueReviewRequest({ sessionId }: { sessionId: string }): Promise<string | null> {
      return asSystem(db, async (tx) => {
        const session = await sessionForReview(tx, sessionId);
        if (session?.status !== 'analyzed') return null;
        const contact = await testerContact(tx, session.tester_id);
        const tester = { id: session.tester_id, email: contact.email, chatId: contact.messaging_chat_id };
        const link = `${baseUrl}/sessions/${sessionId}/review`;
        return queueForTester(
          tx,
          tester,
          {
            kind: 'confirmation_request',
            dedupeKey: `review-request:${sessionId}`,
            subject: `Please review your findings for "${session.study_title}"`,
            body: [
              `Thank you for testing "${session.study_title}". The findings from your session are ready.`,
              `Please review and confirm them: ${link}`,
              'Your payment follows your confirmation.',
            ].join('\n'),
            payload: { sessionId },
          },
          new Date(),
        );
      });
    },

    /** "Report ready" to the study's creator (or its organization's owners), once per report. */
    async queueReportReady({ agentJobId }: { agentJobId: string }): Promise<string[]> {
      return asSystem(db, async (tx) => {
        const job = await completedReportJob(tx, agentJobId);
        if (!job) return [];
        const tester = job.kind === 'agent3';
        if (tester && !job.report_id) return [];
        const what = tester ? 'A tester report' : 'The study report';
        const link = tester
          ? `${baseUrl}/api/reports/${job.report_id}`
          : `${baseUrl}/api/reports/job/${job.study_id}`;
        return queueForStudyContacts(
          tx,
          job.study_id,
          {
            kind: 'report_ready',
            dedupeKey: `report-ready:${agentJobId}`,
            subject: `${what} for "${job.study_title}" is ready`,
            body: `${what} for "${job.study_title}" is ready: ${link}`,
            payload: { agentJobId, studyId: job.study_id },
          },
          new Date(),
        );
      });
    },
  };
}

export type MilestoneActivities = ReturnType<typeof createMilestoneActivities>;
