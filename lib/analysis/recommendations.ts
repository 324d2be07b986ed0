import type { ToneProfile } from '../domain.ts';

/** What to do about each criterion the analysis maps barriers to (see wcag.ts). */
export const RECOMMENDATION_FOR: Readonly<Record<string, string>> = {
  '1.3.1': 'Make only real controls look clickable, and give clickable elements a proper role (WCAG 1.3.1).',
  '2.1.2': 'Let keyboard users move focus out of every component with Tab or Escape (WCAG 2.1.2).',
  '2.2.1':
    'Let users extend or turn off time limits and avoid content that demands sustained focus (WCAG 2.2.1).',
  '2.4.4': 'Make each link say where it leads, so users need not go back and forth (WCAG 2.4.4).',
  '2.4.6': 'Use descriptive headings so users can find content without scanning (WCAG 2.4.6).',
  '3.3.1': 'Describe each input error in text next to the field and say how to fix it (WCAG 3.3.1).',
  '3.3.2': 'Label form fields visibly and state the expected format before input (WCAG 3.3.2).',
  '3.3.3': 'When an entry is rejected, suggest a correction instead of only clearing the field (WCAG 3.3.3).',
  '3.3.5': 'Offer context-sensitive help where users hesitate (WCAG 3.3.5).',
  '4.1.2': 'Give every custom control a role, an accessible name and visible state changes (WCAG 4.1.2).',
};

/** How each tone frames a recommendation; the recommendation itself stays the same. */
export const RECOMMENDATION_FRAME: Readonly<Record<ToneProfile, (text: string) => string>> = {
  standard: (text) => text,
  moderate: (text) => text,
  supportive: (text) => `A worthwhile improvement: ${text}`,
  restorative: (text) => `To make this easier for everyone who uses it: ${text}`,
};
