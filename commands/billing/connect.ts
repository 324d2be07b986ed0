import { asSystem } from '../../db/doors.ts';
import { insertPayoutAccount, payoutAccountOfTester } from '../../db/repositories/payout-accounts.ts';
import { userEmail } from '../../db/repositories/users.ts';
import type { Principal } from '../principal.ts';
import { isAllowedOrigin } from '../../lib/allowed-origins.ts';
import { invalid } from '../../lib/errors.ts';
import { askProvider } from './provider-calls.ts';
import type { CommandContext } from '../context.ts';

/**
 * Payout-account onboarding for the calling tester: their connected account (created once, kept
 * in payout_accounts) and a fresh onboarding link. The provider sends the tester back to
 * `returnUrl`, which must be the service's own origin (or a sub-domain), so the link cannot be
 * turned into a redirect elsewhere.
 */
export async function startOnboarding(deps: CommandContext, principal: Principal, returnUrl: string) {
  const policy = { baseUrl: deps.config.http.baseUrl, allowLocalhost: deps.config.env === 'development' };
  if (!isAllowedOrigin(new URL(returnUrl).origin, policy)) {
    throw invalid("returnUrl: must be on the service's own origin or one of its sub-domains");
  }
  const testerId = principal.claims.sub;
  let account = await asSystem(deps.db, (tx) => payoutAccountOfTester(tx, testerId));
  if (!account) {
    const email = await asSystem(deps.db, (tx) => userEmail(tx, testerId));
    const { accountId } = await askProvider('returnUrl', () =>
      deps.payments.createConnectedAccount({
        testerId,
        email,
        idempotencyKey: `connect:${testerId}`,
      }),
    );
    account = await asSystem(deps.db, (tx) => insertPayoutAccount(tx, testerId, accountId));
  }
  const accountId = account.provider_account_id;
  const { url } = await askProvider('returnUrl', () =>
    deps.payments.createOnboardingLink({ accountId, returnUrl, refreshUrl: returnUrl }),
  );
  return { onboardingUrl: url, accountId };
}
