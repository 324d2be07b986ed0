// The session start page's address (api/pages/session-start), here because the chat's token
// message links it too (commands/sessions/test-token-delivery.ts); the pages' map re-exports it.

export const sessionStartPath = (sessionId: string) => `/sessions/${sessionId}/start`;

/**
 * The start page as accepting an offer leads to it: where the recorder is installed, it presses the
 * page's button itself (the tester's acceptance was the one action).
 */
export const sessionStartAfterAcceptPath = (sessionId: string) => `${sessionStartPath(sessionId)}?start=1`;
