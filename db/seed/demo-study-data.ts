// The demo's one study: active, paid, with three confirmed sessions whose findings passed the
// tester's gate. Fixed dates and texts, so every run of the seed stores the same rows.

import type { Device, FindingSeverity, NoteDecision, ToneProfile, WcagLevel } from '../../lib/domain.ts';

export interface DemoFinding {
  readonly content: string;
  readonly severity: FindingSeverity;
  readonly wcag: { readonly criterion: string; readonly level: WcagLevel };
  readonly notedAt: string;
  readonly decision: NoteDecision;
  readonly annotation: string | null;
}

export interface DemoSession {
  readonly testerEmail: string;
  readonly startedAt: string;
  readonly completedAt: string;
  readonly confirmedAt: string;
  readonly rating: number;
  readonly ratingComment: string;
  readonly findings: readonly DemoFinding[];
}

export const DEMO_STUDY = {
  organizationName: 'Contoso Health',
  createdByEmail: 'owner@contoso.example',
  // The study's natural key: a second run finds it instead of creating another.
  idempotencyKey: 'seed-demo-study',
  title: 'Booking a GP appointment',
  description:
    'Testers book, move and cancel an appointment in the patient portal, with a screen reader or the keyboard where they use one.',
  prototypeUrl: 'https://portal.contoso-health.example/appointments',
  targetCountries: ['GB', 'US', 'DE', 'CA'],
  targetDevices: ['desktop', 'mobile', 'tablet'] satisfies Device[],
  targetLanguages: ['en', 'de'],
  testerCount: 8,
  compensation: { currency: 'EUR', amount: '30.00' },
  toneProfile: 'supportive' satisfies ToneProfile,
  maxDurationMinutes: 45,
  createdAt: '2026-11-02T09:00:00Z',
  paidAt: '2026-11-02T09:20:00Z',
  estimatedLaunchDate: '2026-11-04T09:00:00Z',
  tasks: [
    { title: 'Book', description: 'Book the first free appointment next week with any GP.' },
    { title: 'Move', description: 'Move the appointment to the following day.' },
    { title: 'Cancel', description: 'Cancel the appointment and find the confirmation.' },
  ],
} as const;

export const DEMO_SESSIONS: readonly DemoSession[] = [
  {
    testerEmail: 'tester01@testers.example',
    startedAt: '2026-11-05T10:00:00Z',
    completedAt: '2026-11-05T10:31:00Z',
    confirmedAt: '2026-11-05T11:05:00Z',
    rating: 4,
    ratingComment: 'Clear tasks; the calendar was hard to use.',
    findings: [
      {
        content: 'Date picker traps keyboard focus: Tab never leaves the calendar grid.',
        severity: 'critical',
        wcag: { criterion: '2.1.2', level: 'A' },
        notedAt: '2026-11-05T10:07:12Z',
        decision: 'confirmed',
        annotation: 'I had to reload the page to get out.',
      },
      {
        content: 'Error message not announced: "Invalid time" appears only in red above the form.',
        severity: 'high',
        wcag: { criterion: '3.3.1', level: 'A' },
        notedAt: '2026-11-05T10:12:40Z',
        decision: 'confirmed',
        annotation: null,
      },
    ],
  },
  {
    testerEmail: 'tester02@testers.example',
    startedAt: '2026-11-05T14:00:00Z',
    completedAt: '2026-11-05T14:22:00Z',
    confirmedAt: '2026-11-05T14:40:00Z',
    rating: 5,
    ratingComment: 'Quick on the phone.',
    findings: [
      {
        content: 'Reschedule button has no accessible name: it reads as "button".',
        severity: 'high',
        wcag: { criterion: '4.1.2', level: 'A' },
        notedAt: '2026-11-05T14:09:03Z',
        decision: 'confirmed',
        annotation: null,
      },
      {
        content: 'Repeated taps on the confirmation link: the link text does not say where it leads.',
        severity: 'low',
        wcag: { criterion: '2.4.4', level: 'A' },
        notedAt: '2026-11-05T14:18:30Z',
        decision: 'rejected',
        annotation: 'I tapped twice because my connection was slow, not because of the link.',
      },
    ],
  },
  {
    testerEmail: 'tester03@testers.example',
    startedAt: '2026-11-06T09:15:00Z',
    completedAt: '2026-11-06T09:52:00Z',
    confirmedAt: '2026-11-06T10:20:00Z',
    rating: 3,
    ratingComment: 'The time slots were confusing on the tablet.',
    findings: [
      {
        content: 'Time slot labels missing: slots are announced as "08:00 08:15 08:30" without a day.',
        severity: 'medium',
        wcag: { criterion: '3.3.2', level: 'A' },
        notedAt: '2026-11-06T09:24:51Z',
        decision: 'confirmed',
        annotation: 'Especially confusing when moving the appointment.',
      },
    ],
  },
];
