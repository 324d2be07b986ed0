import { z } from 'zod';
import { reissueTestToken } from '../../commands/sessions/test-token-delivery.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { sessionIdParams } from './sessions.schema.ts';
import { visibleSession } from '../../commands/sessions/session-workflow.ts';
import type { CommandContext } from '../../commands/context.ts';

const issuedTestTokenResponse = z.object({
  sessionId: z.uuid(),
  testToken: z.string().describe('48 hexadecimal characters; shown once'),
  expiresAt: z.string().describe('ISO 8601; 24 hours after issue'),
  messagingQueued: z
    .boolean()
    .describe('true when the token was also queued to the tester through the messaging channel'),
  emailQueued: z
    .boolean()
    .describe('true when the tester has no chat linked and the token was queued to their email instead'),
});

export function testTokenRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/sessions/:id/test-token',
      tag: 'Sessions',
      summary:
        "Issue a fresh test token for an active or paused session (the previous one stops working); answered once and sent to the tester's chat, or by email when no chat is linked",
      auth: 'user',
      roles: ['business', 'admin'],
      params: sessionIdParams,
      resource: 'Session',
      response: issuedTestTokenResponse,
      status: 201,
      errors: [409],
      handler: async ({ params, principal, ctx }) => {
        // Row-level security decides who sees the session: its organization and admins (else 404).
        await visibleSession(deps.db, principal, params.id);
        const issued = await reissueTestToken(deps, params.id);
        ctx.set('Cache-Control', 'no-store'); // the answer carries a credential
        return { data: { ...issued, expiresAt: issued.expiresAt.toISOString() } };
      },
    }),
  ];
}
