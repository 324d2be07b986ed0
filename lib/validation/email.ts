import { z } from 'zod';

/**
 * zod's own address pattern, with each domain label neither starting nor ending with a hyphen
 * (RFC 1035): what JSON Schema's `email` format says too, so the OpenAPI document and validation
 * agree on every address.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;

/** An email address of at most 320 characters. */
export const emailAddress = (message = 'Must be an email address') =>
  z.email({ pattern: EMAIL_PATTERN, error: message }).max(320, 'Must be at most 320 characters');
