// Finds personally identifiable information in a voice transcript (spec: PII segments stay out of
// AI analysis until sanitised). Transcripts come from speech recognition, so spoken forms ("jane
// at example dot com") count as well as written ones. The detector leans towards flagging: a
// false alarm only delays analysis until the sanitiser has run, a miss sends PII to an AI provider.

export type PiiKind = 'email' | 'card' | 'phone' | 'address' | 'name';

export interface PiiMatch {
  readonly kind: PiiKind;
  /** The span to redact, as UTF-16 offsets into the text. */
  readonly start: number;
  readonly end: number;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const SPOKEN_EMAIL =
  /\b[A-Za-z0-9._-]+\s+at\s+[A-Za-z0-9-]+(?:\s+dot\s+[A-Za-z0-9-]+)*\s+dot\s+[A-Za-z]{2,}\b/gi;
// Digit runs with the separators people read numbers with; cards and phones are told apart below.
const DIGIT_RUN = /\+?\d(?:[\s.()-]{0,2}\d)+/g;
const STREET_SUFFIXES =
  'street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|terrace|close|crescent|square|sq|parkway|highway|hwy|strasse|straße|rue';
const STREET = new RegExp(
  String.raw`\b\d{1,5}[a-z]?,?\s+(?:[A-Za-zÀ-ÿ'-]+\s+){1,4}(?:${STREET_SUFFIXES})\b\.?`,
  'gi',
);
const UK_POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/g;
const US_STATE_ZIP = /\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b/g;
// "my name is Jane Doe", "call me jane", "I'm called Jane": the name is the one to three words after.
const SELF_INTRODUCTION =
  /\b(?:my name is|my name's|my full name is|i am called|i'm called|call me)\s+([A-Za-zÀ-ÿ'-]+(?:\s+[A-Za-zÀ-ÿ'-]+){0,2})/gi;
// "this is ..." is everyday think-aloud ("this is confusing"); only "this is Jane speaking" introduces.
const SPEAKING = /\bthis is\s+([A-Za-zÀ-ÿ'-]+(?:\s+[A-Za-zÀ-ÿ'-]+)?)(?=\s+speaking\b)/gi;
// Words that follow "this is" or "call me" without being a name.
const NOT_NAMES = new Set([
  'a',
  'an',
  'the',
  'so',
  'very',
  'really',
  'not',
  'it',
  'this',
  'that',
  'what',
  'weird',
  'confusing',
  'annoying',
  'hard',
  'easy',
  'good',
  'bad',
  'great',
  'strange',
  'broken',
  'slow',
  'fine',
  'taking',
  'where',
  'how',
  'why',
  'when',
  'crazy',
  'frustrating',
  'odd',
  'back',
  'later',
  'again',
  'if',
  'my',
  'your',
  'our',
  'his',
  'her',
  'their',
  'and',
  'but',
  'or',
  'i',
  "i'm",
  'from',
  'here',
  'speaking',
]);

/** Every PII span of the text, in order, without overlaps (the earlier, then longer, span wins). */
export function detectPii(text: string): PiiMatch[] {
  const found: PiiMatch[] = [
    ...spans(text, EMAIL, 'email'),
    ...spans(text, SPOKEN_EMAIL, 'email'),
    ...numberSpans(text),
    ...spans(text, STREET, 'address'),
    ...spans(text, UK_POSTCODE, 'address'),
    ...spans(text, US_STATE_ZIP, 'address'),
    ...nameSpans(text),
  ];
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: PiiMatch[] = [];
  for (const match of found) {
    const last = merged.at(-1);
    if (last && match.start < last.end) continue;
    merged.push(match);
  }
  return merged;
}

export const containsPii = (text: string): boolean => detectPii(text).length > 0;

function spans(text: string, pattern: RegExp, kind: PiiKind): PiiMatch[] {
  return [...text.matchAll(pattern)].map((m) => ({ kind, start: m.index, end: m.index + m[0].length }));
}

/** Card numbers (13-19 digits passing the Luhn check) and phone numbers (7-15 digits). */
function numberSpans(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  for (const m of text.matchAll(DIGIT_RUN)) {
    const digits = m[0].replace(/\D/g, '');
    const span = { start: m.index, end: m.index + m[0].length };
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) out.push({ kind: 'card', ...span });
    else if (digits.length >= 7 && digits.length <= 15) out.push({ kind: 'phone', ...span });
  }
  return out;
}

function nameSpans(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  for (const m of [...text.matchAll(SELF_INTRODUCTION), ...text.matchAll(SPEAKING)]) {
    // Stop at the first word that reads as ordinary speech ("call me Jane and ..." keeps "Jane").
    let length = 0;
    for (const word of m[1]!.matchAll(/\S+/g)) {
      if (NOT_NAMES.has(word[0].toLowerCase())) break;
      length = word.index + word[0].length;
    }
    if (!length) continue;
    // Both patterns end with the name, so it starts where the match ends minus its length.
    const start = m.index + m[0].length - m[1]!.length;
    out.push({ kind: 'name', start, end: start + length });
  }
  return out;
}

/** The Luhn checksum of card numbers (ISO/IEC 7812). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
