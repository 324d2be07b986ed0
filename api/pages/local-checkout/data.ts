import { z } from 'zod';
import { asSystem } from '../../../db/doors.ts';
import { findCheckoutSession, type CheckoutSessionRow } from '../../../db/repositories/checkout-sessions.ts';
import { notFound } from '../../../lib/errors.ts';
import type { PageRequest } from '../shared/page-routes.ts';
import type { CommandContext } from '../../../commands/context.ts';

const params = z.object({ id: z.string().min(1).max(255) });

/** The page's checkout session of the local provider; the 404 page with any other provider. */
export async function checkoutSessionOf(
  billing: CommandContext,
  request: PageRequest,
): Promise<CheckoutSessionRow> {
  const id = params.safeParse(request.ctx.params);
  const session =
    id.success && billing.config.payments.mode === 'local'
      ? await asSystem(billing.db, (tx) => findCheckoutSession(tx, id.data.id))
      : undefined;
  if (!session || session.provider !== 'local') throw notFound('Checkout session');
  return session;
}
