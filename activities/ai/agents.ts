import { wordingRunner, type AgentAnswer } from './agent-runner.ts';
import { agent1Insights, type Agent1Input, type Insights } from './agents/agent1.ts';
import { agent2Findings, type Agent2Input, type Agent2Result } from './agents/agent2.ts';
import { agent3Report, type Agent3Input } from './agents/agent3.ts';
import { agent4Aggregate, type Agent4Input, type AggregateContent } from './agents/agent4.ts';
import { draftOutreach, type OutreachDraft, type OutreachInput } from './agents/outreach.ts';
import type { ProviderFailure } from './errors.ts';
import { silentLogger, type AgentLogger } from './failover.ts';
import type { AiProvider } from '../../clients/ai/types.ts';
import type { SessionReportContent } from '../../lib/analysis/session-report.ts';

export type { AgentAnswer } from './agent-runner.ts';
export { AllProvidersUnavailableError } from './errors.ts';
export { LOCAL_ANALYST } from '../../clients/ai/types.ts';

export interface Agents {
  /** True when no provider is configured and the local analyst answers everything. */
  readonly local: boolean;
  agent1Insights(input: Agent1Input): Promise<AgentAnswer<Insights>>;
  agent2Findings(input: Agent2Input): Promise<AgentAnswer<Agent2Result>>;
  agent3Report(input: Agent3Input): Promise<AgentAnswer<SessionReportContent>>;
  agent4Aggregate(input: Agent4Input): Promise<AgentAnswer<AggregateContent>>;
  /** The offer a tester is sent once the business approves their proposal (reviewed before sending). */
  draftOutreach(input: OutreachInput): Promise<AgentAnswer<OutreachDraft>>;
}

/**
 * The four agents (and the outreach drafter) over the providers in their configured order (an empty list: the local analyst).
 * Each throws AllProvidersUnavailableError when every provider failed, so the caller can queue
 * the step for the 15-minute retry.
 */
export function createAgents({
  providers,
  logger = silentLogger,
  onRefused,
}: {
  readonly providers: readonly AiProvider[];
  readonly logger?: AgentLogger;
  /** Hears of each provider refusal (a bad key, a retired model): the worker alerts the admins. */
  readonly onRefused?: (failure: ProviderFailure) => Promise<void>;
}): Agents {
  const word = wordingRunner(providers, logger, onRefused);
  return {
    local: providers.length === 0,
    agent1Insights: (input) => agent1Insights(word, input),
    agent2Findings: (input) => agent2Findings(word, input),
    agent3Report: (input) => agent3Report(word, input),
    agent4Aggregate: (input) => agent4Aggregate(word, input),
    draftOutreach: (input) => draftOutreach(word, input),
  };
}
