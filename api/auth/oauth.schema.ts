import { z } from 'zod';
import { storableText } from '../../lib/validation/storable.ts';

export const oauthStartParams = z.object({ provider: z.string().regex(/^[a-z0-9_-]{1,50}$/) });

export const oauthStartQuery = z.object({
  role: z
    .enum(['business', 'tester'])
    .default('tester')
    .describe('The role of an account this sign-in creates; existing accounts keep theirs'),
});

export const oauthCallbackQuery = z.object({
  code: storableText(2048).optional().describe('Authorization code'),
  state: storableText(512).optional().describe('CSRF token from the start of the flow'),
  error: storableText(200).optional().describe('Set by the provider, for example access_denied'),
  error_description: storableText(2000).optional(),
});

export const redirectResponse = z.object({
  redirectTo: z.string().describe('Also in the Location header of the 302'),
});
