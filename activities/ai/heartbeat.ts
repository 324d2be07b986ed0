import { Context } from '@temporalio/activity';

/** How often a long activity tells the server it is alive; the workflow's heartbeat timeout is a few times this. */
export const HEARTBEAT_EVERY_MS = 2_000;

/**
 * Runs `work` while heartbeating, so that a worker killed mid-agent is noticed within the
 * workflow's heartbeat timeout rather than the agent's whole start-to-close timeout. Outside an
 * activity (a direct call in a test) it just runs `work`.
 */
export async function whileHeartbeating<T>(work: () => Promise<T>): Promise<T> {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return work();
  }
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
