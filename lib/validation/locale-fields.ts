import { z } from 'zod';
import { ISO_3166_ALPHA2, isBcp47 } from './iso-codes.ts';

/** An ISO 3166-1 alpha-2 country code, upper case as the standard writes it. */
export const countryCode = z
  .string()
  .refine((code) => ISO_3166_ALPHA2.has(code), 'Must be an ISO 3166-1 alpha-2 country code (e.g. GB)')
  .meta({ enum: [...ISO_3166_ALPHA2].sort() });

/** A BCP 47 language tag. */
export const languageTag = z
  .string()
  .refine(isBcp47, 'Must be a BCP 47 language tag with a registered language (e.g. en, pt-BR)')
  .meta({ description: 'A BCP 47 language tag with a registered language (e.g. en, pt-BR)' });
