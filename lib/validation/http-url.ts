import { z } from 'zod';

/**
 * A schema-level error message that outranks validate.ts's global "Required", so a missing value
 * keeps saying Required and a present but wrong one says `message`.
 */
export const requiredOr = (message: string) => (issue: { readonly input?: unknown }) =>
  issue.input === undefined ? 'Required' : message;

/** An absolute http or https URL of at most 2,048 characters (prototypes, audited pages, webhook endpoints). */
export const httpUrl = () =>
  z
    .url({ protocol: /^https?$/, error: requiredOr('Must be an http or https URL') })
    .max(2048, 'Must be at most 2048 characters');
