import { z } from 'zod';
import { API_TOKEN_SCOPES } from '../../lib/domain.ts';

export const apiTokenIdParams = z.object({ id: z.uuid() });

export const apiTokenView = z.object({
  tokenId: z.uuid(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  prefix: z.string().describe('The first characters of the token, to tell tokens apart'),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});

export const createdApiTokenView = apiTokenView.extend({
  token: z.string().describe('The secret, shown this once: only its hash is stored'),
});

export const revokedApiTokenView = z.object({ tokenId: z.uuid(), revokedAt: z.iso.datetime() });
