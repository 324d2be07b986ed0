import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { WordingRunner } from '../../activities/ai/agent-runner.ts';
import { AllProvidersUnavailableError, createAgents, type Agents } from '../../activities/ai/agents.ts';
import { draftOutreach, type OutreachInput } from '../../activities/ai/agents/outreach.ts';
import { createMatchingActivities } from '../../activities/matching/matching-activities.ts';
import { createOutreachActivities } from '../../activities/outreach/outreach-activities.ts';
import { asSystem } from '../../db/doors.ts';
import { PROPOSAL_DECISION_REFUSED } from '../../lib/failures.ts';
import { insertStudy } from '../auth/helpers.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { qualifiedTester } from './fixtures.ts';

const input: OutreachInput = {
  channel: 'email',
  testerFirstName: 'Ada',
  organizationName: 'Contoso',
  study: {
    title: 'Checkout',
    taskCount: 3,
    maxDurationMinutes: 45,
    devices: ['desktop', 'mobile'],
    compensation: '25.00 EUR',
    thinkAloud: true,
    recordsFacial: true,
    recordsVoice: false,
  },
};

describe('outreach drafting (activities/ai/agents/outreach.ts)', () => {
  it('the local analyst writes the offer from the study and the first name, with a subject for email', async () => {
    const answer = await createAgents({ providers: [] }).draftOutreach(input);
    assert.equal(answer.provider, 'local-analyst');
    assert.equal(answer.usedFallback, false);
    assert.equal(answer.result.subject, 'A paid usability study for you: Checkout');
    assert.equal(
      answer.result.body,
      [
        'Hi Ada,',
        'Contoso is looking for testers for "Checkout". It has 3 tasks and takes at most 45 minutes on a desktop or mobile device.',
        'You will be asked to think aloud while you work through the tasks.',
        'Besides your interactions, the session records facial-expression scores (no video leaves your computer).',
        'You will be paid 25.00 EUR once you have confirmed the findings from your session.',
        'Would you like to take part?',
      ].join('\n\n'),
    );
    const chat = await createAgents({ providers: [] }).draftOutreach({ ...input, channel: 'messaging' });
    assert.equal(chat.result.subject, null);
  });

  it("a provider's words are used; an email draft without a subject gets the local one; a chat draft none", async () => {
    const word: WordingRunner = async () =>
      Promise.resolve({
        wording: { body: 'Hello Ada!' } as never,
        provider: 'anthropic',
        usedFallback: true,
      });
    const email = await draftOutreach(word, input);
    assert.deepEqual(email, {
      result: { subject: 'A paid usability study for you: Checkout', body: 'Hello Ada!' },
      provider: 'anthropic',
      usedFallback: true,
    });
    const chat = await draftOutreach(
      async () =>
        Promise.resolve({
          wording: { subject: 'x', body: 'Hi' } as never,
          provider: 'openai',
          usedFallback: false,
        }),
      {
        ...input,
        channel: 'messaging',
      },
    );
    assert.equal(chat.result.subject, null);
  });
});

describe('acceptProposal (activities/outreach/outreach-activities.ts)', function () {
  this.timeout(60_000);

  async function pendingProposal(country: string) {
    const { organizationId, claims } = await createBusiness('pro');
    await qualifiedTester(country);
    const studyId = await insertStudy(organizationId, {
      status: 'active',
      target_countries: [country],
      tester_count: 1,
    });
    await createMatchingActivities({ db: serviceDatabase() }).proposeTesters({ studyId });
    const proposal = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('proposals').select('id').where('study_id', '=', studyId).executeTakeFirstOrThrow(),
    );
    return { proposalId: proposal.id, decidedBy: claims.sub };
  }

  it('when every provider fails, the local analyst drafts it and the message records usedFallback', async () => {
    const down: Agents = {
      ...createAgents({ providers: [] }),
      local: false,
      draftOutreach: () =>
        Promise.reject(
          new AllProvidersUnavailableError([{ provider: 'openai', kind: 'unavailable', reason: 'HTTP 500' }]),
        ),
    };
    const decision = await pendingProposal('BG');
    const outreachId = randomUUID();
    const decidedAt = '2026-11-24T12:00:00.000Z';
    const activities = createOutreachActivities({ db: serviceDatabase(), agents: down });
    assert.deepEqual(await activities.acceptProposal({ ...decision, outreachId, decidedAt }), {
      acceptedAt: decidedAt,
    });
    const message = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('outreach_messages').selectAll().where('id', '=', outreachId).executeTakeFirstOrThrow(),
    );
    assert.equal(message.used_fallback, true);
    assert.equal(message.status, 'pending');
    assert.match(message.body, /^Hi Tester,/);

    // A retry of the same approval answers as it stands; another approval is refused, never retried.
    assert.deepEqual(await activities.acceptProposal({ ...decision, outreachId, decidedAt }), {
      acceptedAt: decidedAt,
    });
    await assert.rejects(
      activities.acceptProposal({ ...decision, outreachId: randomUUID(), decidedAt }),
      (error: unknown) =>
        error instanceof ApplicationFailure &&
        error.nonRetryable &&
        error.type === PROPOSAL_DECISION_REFUSED &&
        error.message === 'Proposal must be pending to approve (it is accepted)',
    );
  });
});
