// The gamification workflow's id and signal (workflows/gamification.ts). Dependency-free.
import { defineSignal } from '@temporalio/workflow';

export const gamificationWorkflowId = (sessionId: string): string => `gamification:${sessionId}`;

/** Sent by the API once the organization rated the session: the evaluation need not wait longer. */
export const sessionRatedSignal = defineSignal<[]>('sessionRated');
