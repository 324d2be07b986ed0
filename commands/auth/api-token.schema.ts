import { z } from 'zod';
import { API_TOKEN_SCOPES } from '../../lib/domain.ts';
import { storableString } from '../../lib/validation/storable.ts';

export const createApiTokenBody = z.object({
  name: storableString().max(100, 'Must be at most 100 characters').trim().min(1, 'Must not be empty'),
  scope: z
    .enum(API_TOKEN_SCOPES)
    .describe(
      'read: GET only; read_write: GET, POST, PATCH; admin: everything, billing and webhooks included',
    ),
});
