// The AI agent workflows' ids and input (workflows/agents.ts). Dependency-free.

export const agent1WorkflowId = (analysisJobId: string): string => `agent1:${analysisJobId}`;
export const agent4WorkflowId = (aggregateJobId: string): string => `agent4:${aggregateJobId}`;

export interface AgentJobInput {
  readonly jobId: string;
}
