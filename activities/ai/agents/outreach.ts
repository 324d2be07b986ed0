import { z } from 'zod';
import type { Channel } from '../../../lib/domain.ts';
import { words, type AgentAnswer, type WordingRunner } from '../agent-runner.ts';

/** What an outreach draft is written from: the study as a tester sees it, and the tester's first name. */
export interface OutreachInput {
  readonly channel: Channel;
  readonly testerFirstName: string | null;
  readonly organizationName: string;
  readonly study: {
    readonly title: string;
    readonly taskCount: number;
    readonly maxDurationMinutes: number;
    readonly devices: readonly string[];
    /** The payment, formatted (`25.00 EUR`). */
    readonly compensation: string;
    readonly thinkAloud: boolean;
    readonly recordsFacial: boolean;
    readonly recordsVoice: boolean;
  };
}

export interface OutreachDraft {
  /** Email only. */
  readonly subject: string | null;
  readonly body: string;
}

const SYSTEM = [
  'You write the first message a usability study sends to a tester it would like to invite.',
  'Be warm, plain and brief; address the tester by first name when one is given.',
  'State only the facts in the material: the study title, who runs it, the number of tasks, the',
  'time it takes at most, the devices, what is recorded, and the payment after the tester confirms',
  'their findings. Invent nothing: no dates, links, names or promises beyond the material.',
  'A team member reviews the message before it is sent; the tester answers the offer separately.',
].join(' ');

const listed = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/** The local analyst's message: the same facts, in a fixed, friendly form. */
export function localOutreachDraft(input: OutreachInput): OutreachDraft {
  const { study } = input;
  const recorded = [
    study.recordsFacial ? 'facial-expression scores (no video leaves your computer)' : null,
    study.recordsVoice ? 'voice transcripts (no audio leaves your computer)' : null,
  ].filter((item): item is string => item !== null);
  const body = [
    `Hi ${input.testerFirstName ?? 'there'},`,
    `${input.organizationName} is looking for testers for "${study.title}". It has ${study.taskCount} task${
      study.taskCount === 1 ? '' : 's'
    } and takes at most ${study.maxDurationMinutes} minutes on a ${listed(study.devices)} device.`,
    study.thinkAloud ? 'You will be asked to think aloud while you work through the tasks.' : null,
    recorded.length ? `Besides your interactions, the session records ${recorded.join(' and ')}.` : null,
    `You will be paid ${study.compensation} once you have confirmed the findings from your session.`,
    'Would you like to take part?',
  ]
    .filter((line): line is string => line !== null)
    .join('\n\n');
  return {
    subject:
      input.channel === 'email' ? `A paid usability study for you: ${study.title}`.slice(0, 200) : null,
    body,
  };
}

/** The offer's wording: from the providers in failover order, or from the local analyst. */
export async function draftOutreach(
  word: WordingRunner,
  input: OutreachInput,
): Promise<AgentAnswer<OutreachDraft>> {
  const email = input.channel === 'email';
  const worded = await word({
    agent: 'outreach',
    system: SYSTEM,
    material: input,
    // Nullable rather than absent: OpenAI's strict schemas require every property.
    schema: z.object({
      subject: words(150)
        .nullable()
        .describe(email ? "the email's subject" : 'null: a chat message has none'),
      body: words(2_000),
    }),
    local: () => {
      const draft = localOutreachDraft(input);
      return { body: draft.body, subject: draft.subject };
    },
  });
  const { subject, body } = worded.wording;
  return {
    result: {
      subject: email ? (subject ?? localOutreachDraft(input).subject) : null,
      body,
    },
    provider: worded.provider,
    usedFallback: worded.usedFallback,
  };
}
