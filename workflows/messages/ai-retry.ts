// The AI retry schedule's id (workflows/ai-retry.ts). Its completions reach the session workflow
// as that workflow's signal (session.ts: `aiWorkCompletedSignal`). Dependency-free.

/** The Temporal Schedule that starts the retry (spec: "AI retry job every 15 minutes"). */
export const AI_RETRY_SCHEDULE_ID = 'ai-retry';
