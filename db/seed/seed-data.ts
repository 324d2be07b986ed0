// The demo data set, built from a fixed-seed generator so every run of `npm run seed` produces the
// same rows: tests and the demo can name a tester or an organization and find it.

import type {
  AccessNeed,
  AssistiveTechnology,
  Device,
  MemberRole,
  Plan,
  TesterStatus,
} from '../../lib/domain.ts';

export interface SeedOrganization {
  readonly name: string;
  readonly plan: Plan;
  readonly users: ReadonlyArray<{ email: string; displayName: string; memberRole: MemberRole }>;
}

export interface SeedTester {
  readonly email: string;
  readonly displayName: string;
  readonly country: string;
  readonly birthYear: number;
  readonly devices: Device[];
  readonly languages: string[];
  readonly accessNeeds: AccessNeed[];
  readonly assistiveTechnologies: AssistiveTechnology[];
  readonly status: TesterStatus;
  readonly quizScore: number | null;
}

export interface SeedQuestion {
  readonly text: string;
  readonly options: ReadonlyArray<{ id: string; text: string }>;
  readonly correctOptionId: string;
  readonly points: number;
}

export const SEED_ORGANIZATIONS: readonly SeedOrganization[] = [
  {
    name: 'Northwind Retail',
    plan: 'free',
    users: [
      { email: 'owner@northwind.example', displayName: 'Nadia Owens', memberRole: 'owner' },
      { email: 'researcher@northwind.example', displayName: 'Rui Alves', memberRole: 'member' },
    ],
  },
  {
    name: 'Contoso Health',
    plan: 'pro',
    users: [
      { email: 'owner@contoso.example', displayName: 'Chidi Okafor', memberRole: 'owner' },
      { email: 'designer@contoso.example', displayName: 'Dana Kim', memberRole: 'member' },
    ],
  },
];

export const SEED_ADMIN = { email: 'admin@usability.example', displayName: 'Platform Admin' } as const;

/** Password of every seeded account, for the demo only; hashed before it is stored. */
export const SEED_PASSWORD = 'demo-password-2026';

const COUNTRIES: ReadonlyArray<{ code: string; languages: string[] }> = [
  { code: 'GB', languages: ['en-GB'] },
  { code: 'US', languages: ['en-US', 'es-US'] },
  { code: 'DE', languages: ['de', 'en'] },
  { code: 'FR', languages: ['fr'] },
  { code: 'ES', languages: ['es', 'ca'] },
  { code: 'BR', languages: ['pt-BR'] },
  { code: 'IN', languages: ['hi', 'en-IN'] },
  { code: 'JP', languages: ['ja'] },
  { code: 'NG', languages: ['en', 'yo'] },
  { code: 'CA', languages: ['en-CA', 'fr-CA'] },
];

const FIRST_NAMES = [
  'Amara',
  'Ben',
  'Chen',
  'Dara',
  'Elif',
  'Femi',
  'Greta',
  'Hiro',
  'Ines',
  'Jonas',
  'Kavya',
  'Luca',
  'Maya',
  'Noor',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sami',
  'Tomas',
  'Uma',
  'Vera',
  'Wen',
  'Yusuf',
];
const LAST_NAMES = ['Adeyemi', 'Becker', 'Costa', 'Dubois', 'Endo', 'Fischer', 'Garcia', 'Haddad'];

// Screen-reader use is an assistive technology in the schema; the other needs are access needs.
const ACCESS_PROFILES: ReadonlyArray<{ needs: AccessNeed[]; technologies: AssistiveTechnology[] }> = [
  { needs: [], technologies: [] },
  { needs: ['blind'], technologies: ['screen_reader'] },
  { needs: ['keyboard_only'], technologies: [] },
  { needs: ['low_vision'], technologies: ['screen_magnifier'] },
  { needs: ['cognitive'], technologies: [] },
  { needs: ['blind', 'keyboard_only'], technologies: ['screen_reader', 'braille_display'] },
  { needs: ['low_vision', 'keyboard_only'], technologies: ['screen_reader'] },
  { needs: ['motor'], technologies: ['voice_control'] },
];

const DEVICE_SETS: ReadonlyArray<Device[]> = [
  ['desktop'],
  ['mobile'],
  ['tablet'],
  ['desktop', 'mobile'],
  ['mobile', 'tablet'],
  ['desktop', 'mobile', 'tablet'],
];

export const SEED_TESTER_COUNT = 48;

/** mulberry32: tiny, fast and deterministic; quality is ample for demo data. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedTesters(count = SEED_TESTER_COUNT): SeedTester[] {
  const random = generator(20261122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, index) => {
    // Round-robin over countries, devices and access profiles guarantees every value appears.
    const country = COUNTRIES[index % COUNTRIES.length]!;
    const access = ACCESS_PROFILES[index % ACCESS_PROFILES.length]!;
    const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
    const last = pick(LAST_NAMES);
    const status = index % 16 === 15 ? 'suspended' : index % 12 === 11 ? 'pending' : 'active';
    return {
      email: `tester${String(index + 1).padStart(2, '0')}@testers.example`,
      displayName: `${first} ${last}`,
      country: country.code,
      birthYear: 1950 + Math.floor(random() * 55),
      devices: [...DEVICE_SETS[index % DEVICE_SETS.length]!],
      languages: [...country.languages],
      accessNeeds: [...access.needs],
      assistiveTechnologies: [...access.technologies],
      status,
      quizScore: status === 'pending' ? null : 70 + Math.floor(random() * 31),
    };
  });
}

export const SEED_QUIZ = {
  passingScore: 70,
  questions: [
    {
      text: 'What does WCAG success criterion 1.1.1 require?',
      options: [
        { id: 'a', text: 'Text alternatives for non-text content' },
        { id: 'b', text: 'Captions for live audio' },
        { id: 'c', text: 'A contrast ratio of 7:1' },
      ],
      correctOptionId: 'a',
      points: 20,
    },
    {
      text: 'During a session you cannot leave a date picker with the keyboard. What do you report?',
      options: [
        { id: 'a', text: 'Nothing; use the mouse instead' },
        { id: 'b', text: 'A keyboard trap (WCAG 2.1.2)' },
        { id: 'c', text: 'A colour contrast problem' },
      ],
      correctOptionId: 'b',
      points: 20,
    },
    {
      text: 'Which of these may you send to the service during a test?',
      options: [
        { id: 'a', text: 'Raw video of your face' },
        { id: 'b', text: 'The audio recording of your voice' },
        { id: 'c', text: 'Transcripts and pre-processed scores' },
      ],
      correctOptionId: 'c',
      points: 20,
    },
    {
      text: 'What is the minimum contrast ratio for normal body text at Level AA?',
      options: [
        { id: 'a', text: '3:1' },
        { id: 'b', text: '4.5:1' },
        { id: 'c', text: '7:1' },
      ],
      correctOptionId: 'b',
      points: 20,
    },
    {
      text: 'A form shows "Invalid input" at the top of the page only. Which criterion is at risk?',
      options: [
        { id: 'a', text: '3.3.1 Error Identification' },
        { id: 'b', text: '2.4.2 Page Titled' },
        { id: 'c', text: '1.4.4 Resize Text' },
      ],
      correctOptionId: 'a',
      points: 20,
    },
  ] satisfies SeedQuestion[],
} as const;
