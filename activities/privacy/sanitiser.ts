import { detectPii, type PiiKind } from '../../lib/pii-detector.ts';

/** What replaces each kind of PII: the kind stays readable for analysis, the value is gone. */
const PLACEHOLDER: Readonly<Record<PiiKind, string>> = {
  email: '[email]',
  card: '[card number]',
  phone: '[phone number]',
  address: '[address]',
  name: '[name]',
};

/** The transcript with every detected PII span replaced by its placeholder. */
export function redactPii(text: string): { text: string; redactions: number } {
  const matches = detectPii(text);
  let out = '';
  let cursor = 0;
  for (const match of matches) {
    out += text.slice(cursor, match.start) + PLACEHOLDER[match.kind];
    cursor = match.end;
  }
  return { text: out + text.slice(cursor), redactions: matches.length };
}
