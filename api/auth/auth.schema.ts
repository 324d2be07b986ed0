import { z } from 'zod';
import { emailAddress } from '../../lib/validation/email.ts';
import { USER_ROLES } from '../../lib/domain.ts';
import { storableString, storableText } from '../../lib/validation/storable.ts';

const email = emailAddress();

// Bounded above so a megabyte "password" cannot make scrypt a denial of service.
export const newPassword = z
  .string()
  .min(10, 'Must be at least 10 characters')
  .max(200, 'Must be at most 200 characters');

export const registerBody = z.object({
  email,
  password: newPassword,
  role: z.enum(['business', 'tester']),
  displayName: storableString().max(200).trim().min(1).optional(),
  organizationName: storableString().max(200).trim().min(1).optional().describe('Business accounts only'),
});

export type RegisterInput = z.output<typeof registerBody>;

export const loginBody = z.object({
  email,
  password: storableString().min(1, 'Required').max(200, 'Must be at most 200 characters'),
});

export const emailBody = z.object({ email });

export const oneTimeTokenBody = z.object({ token: storableText(200).min(1) });

export const passwordResetConfirmBody = z.object({
  token: storableText(200).min(1),
  password: newPassword,
});

export const userView = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(USER_ROLES),
  displayName: z.string().nullable(),
  organizationId: z.uuid().nullable(),
});

export const sessionResponse = z.object({
  user: userView,
  sessionToken: z.string().describe('The session JWT, also set as the httpOnly `session` cookie'),
  expiresAt: z.iso.datetime(),
});

export const acceptedResponse = z.object({
  accepted: z.literal(true).describe('Answered alike whether or not the email has an account'),
});

export const loggedOutResponse = z.object({ loggedOut: z.literal(true) });

export const passwordResetResponse = z.object({ passwordReset: z.literal(true) });
