import { z, type ZodType } from 'zod';
import type { AgentKind } from '../../lib/domain.ts';
import { ProviderOutputError, type ProviderFailure } from './errors.ts';
import { askInOrder, silentLogger, type AgentLogger } from './failover.ts';
import { LOCAL_ANALYST, type AiProvider } from '../../clients/ai/types.ts';

/** Every agent answers with its result and who produced it (spec: `usedFallback` on every response). */
export interface AgentAnswer<T> {
  readonly result: T;
  readonly provider: string;
  readonly usedFallback: boolean;
}

/**
 * The part of an agent a model may do: words over facts. The facts are computed by the analysis
 * core and go into the prompt as material; the model answers in `schema`, whose ids are checked
 * against the material so that an answer about something that does not exist fails over.
 */
export interface WordingTask<W> {
  /** The agent, or the outreach drafter, for the logs. */
  readonly agent: AgentKind | 'outreach';
  readonly system: string;
  readonly material: unknown;
  readonly schema: ZodType<W>;
  /** The local analyst's words for the same facts. */
  readonly local: () => W;
}

export interface Worded<W> {
  readonly wording: W;
  readonly provider: string;
  readonly usedFallback: boolean;
}

export type WordingRunner = <W>(task: WordingTask<W>) => Promise<Worded<W>>;

/** Runs wording tasks on the providers in order, or on the local analyst when none is configured. */
export function wordingRunner(
  providers: readonly AiProvider[],
  logger: AgentLogger = silentLogger,
  onRefused?: (failure: ProviderFailure) => Promise<void>,
): WordingRunner {
  return async <W>(task: WordingTask<W>): Promise<Worded<W>> => {
    if (!providers.length) {
      logger.info(
        { agent: task.agent, provider: LOCAL_ANALYST },
        `${LOCAL_ANALYST} answered (no AI provider configured)`,
      );
      return { wording: task.local(), provider: LOCAL_ANALYST, usedFallback: false };
    }
    const request = {
      system: task.system,
      prompt: `Material:\n${JSON.stringify(task.material)}`,
      answer: { name: `${task.agent}_answer`, schema: task.schema },
    };
    const answer = await askInOrder(
      providers,
      request,
      (text) => parseAnswer(text, task.schema),
      logger,
      { agent: task.agent },
      onRefused,
    );
    return { wording: answer.value, provider: answer.provider, usedFallback: answer.usedFallback };
  };
}

/**
 * The model's structured output: JSON in the answer's schema, asked for in each API's own mode, so
 * anything else (prose, a code fence, a cut-off answer) is a provider error and fails over.
 */
export function parseAnswer<W>(text: string, schema: ZodType<W>): W {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderOutputError(`not JSON: ${text.slice(0, 80)}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ProviderOutputError(`schema: ${issue.path.join('.') || 'answer'}: ${issue.message}`);
  }
  return parsed.data;
}

/** An id the material named; anything else is a made-up reference. */
export function knownId(ids: Iterable<string>, what: string) {
  const known = new Set(ids);
  return z.string().refine((id) => known.has(id), { message: `unknown ${what}` });
}

/** Words are bounded: a model that rambles or answers empty is not answering. */
export const words = (max: number) => z.string().trim().min(1).max(max);

/** How many items of each list the material shows a model; the local analyst words the rest. */
export const MATERIAL_ITEMS = 100;
