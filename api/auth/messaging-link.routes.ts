import { z } from 'zod';
import { asSystem } from '../../db/doors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import type { AuthDependencies } from './dependencies.ts';
import { issueMessagingLinkCode } from '../../commands/messaging/messaging-links.ts';

const linkCodeResponse = z.object({
  code: z.string().describe('One-time, valid 15 minutes; a newer code replaces it'),
  startCommand: z.string().describe('What the tester sends to the bot: `/start <code>`'),
  expiresAt: z.iso.datetime(),
});

export function messagingLinkRoutes(deps: AuthDependencies): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/auth/messaging-link',
      tag: 'Authentication',
      summary:
        'A one-time code that links the tester\'s chat: send "/start <code>" to the bot, whose update reaches POST /api/webhooks/messaging',
      auth: 'user',
      roles: ['tester'],
      response: linkCodeResponse,
      status: 201,
      errors: [409],
      handler: async ({ principal, ctx }) => {
        // One-time tokens are system tables (0011); the code is bound to the caller's own id.
        const { code, expiresAt } = await asSystem(deps.db, (tx) =>
          issueMessagingLinkCode(tx, principal.claims.sub, deps.now()),
        );
        ctx.set('Cache-Control', 'no-store'); // the answer carries a credential
        return { data: { code, startCommand: `/start ${code}`, expiresAt: expiresAt.toISOString() } };
      },
    }),
  ];
}
