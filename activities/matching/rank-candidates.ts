import type { AccessNeed, AssistiveTechnology, Device } from '../../lib/domain.ts';

// Matching's ranking, a pure function over the testers the eligibility query found
// (db/repositories/matching.ts): every candidate there already fits the study's countries, ages,
// devices and languages; this decides who fits best, and says why in sentences a person reads.

export interface MatchCandidate {
  readonly testerId: string;
  readonly devices: readonly Device[];
  readonly languages: readonly string[];
  readonly accessNeeds: readonly AccessNeed[];
  readonly assistiveTechnologies: readonly AssistiveTechnology[];
  readonly completedSessions: number;
  /** Mean rating of the tester's confirmed sessions (1-5); null without a rated one. */
  readonly meanRating: number | null;
  /** The tester's latest session; null for a tester who never had one. */
  readonly lastActiveAt: Date | null;
}

export interface MatchStudy {
  readonly devices: readonly Device[];
  /** BCP 47 codes; the first is the study's main language. */
  readonly languages: readonly string[];
  /** The access needs the study looks for (`soughtNeeds` of its description and tasks). */
  readonly soughtNeeds: readonly AccessNeed[];
  readonly abTestEnabled: boolean;
}

export interface RankedCandidate {
  readonly testerId: string;
  /** 0-1, four decimals (the column's precision). */
  readonly score: number;
  readonly reasons: readonly string[];
}

/** What each part weighs; access needs count only for a study that looks for some. */
export const MATCH_WEIGHTS = {
  devices: 0.2,
  language: 0.1,
  accessNeeds: 0.25,
  experience: 0.15,
  rating: 0.15,
  recency: 0.15,
} as const;
/** An A/B study's picks keep its devices balanced: this share of the score is the balance. */
export const BALANCE_WEIGHT = 0.1;
/** Sessions after which experience counts in full. */
const EXPERIENCED_AFTER = 5;
/** A new tester's rating part: neither the best nor the worst. */
const UNRATED = 0.6;
/** A tester without a session yet still gets a chance against long-idle ones. */
const NEVER_ACTIVE = 0.3;
const DAY_MS = 24 * 60 * 60 * 1000;

const NEED_WORDS: ReadonlyArray<readonly [AccessNeed, RegExp]> = [
  ['blind', /\b(blind(?!ness to colou?r)|screen ?readers?|nvda|jaws|voiceover|talkback)\b/i],
  ['low_vision', /\b(low vision|partially sighted|magnif\w*|zoom(ed|ing)? (text|in))\b/i],
  ['keyboard_only', /\b(keyboard(-| )only|keyboard users?|keyboard navigation|without a mouse)\b/i],
  ['color_vision_deficiency', /\b(colou?r ?blind\w*|colou?r vision)\b/i],
  ['deaf_or_hard_of_hearing', /\b(deaf|hard of hearing|captions?|subtitles?)\b/i],
  ['motor', /\b(motor (impairment|disabilit\w+)|switch access|tremors?|limited dexterity)\b/i],
  ['cognitive', /\b(cognitive|dyslexi\w*|adhd|learning disabilit\w+|memory impairment)\b/i],
  ['photosensitivity', /\b(photosensitiv\w*|seizures?|flashing content)\b/i],
];

/** What assistive technology says about a need the tester may not have listed. */
const NEED_OF_TECHNOLOGY: Partial<Record<AssistiveTechnology, AccessNeed>> = {
  screen_reader: 'blind',
  braille_display: 'blind',
  screen_magnifier: 'low_vision',
  voice_control: 'motor',
  switch_access: 'motor',
  eye_tracking: 'motor',
  captions: 'deaf_or_hard_of_hearing',
};

const NEED_NAMES: Record<AccessNeed, string> = {
  keyboard_only: 'keyboard-only use',
  low_vision: 'low vision',
  blind: 'blindness',
  color_vision_deficiency: 'colour vision deficiency',
  deaf_or_hard_of_hearing: 'deafness or hearing loss',
  motor: 'motor impairment',
  cognitive: 'cognitive disability',
  photosensitivity: 'photosensitivity',
  other: 'other access needs',
};

/** The access needs a study's own words look for (its description and tasks). */
export function soughtNeeds(texts: readonly string[]): AccessNeed[] {
  const text = texts.join('\n');
  return NEED_WORDS.filter(([, words]) => words.test(text)).map(([need]) => need);
}

const primaryLanguage = (code: string): string => code.split('-')[0]!.toLowerCase();
const listed = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

interface Part {
  readonly weight: number;
  readonly value: number;
  readonly reason: string;
}

function partsOf(candidate: MatchCandidate, study: MatchStudy, now: Date): Part[] {
  const parts: Part[] = [];
  const devices = study.devices.filter((device) => candidate.devices.includes(device));
  parts.push({
    weight: MATCH_WEIGHTS.devices,
    value: devices.length / study.devices.length,
    reason:
      devices.length === study.devices.length
        ? `Tests on every device the study asks for (${listed(devices)})`
        : `Tests on ${listed(devices)}, ${devices.length} of the study's ${study.devices.length} devices`,
  });

  const main = primaryLanguage(study.languages[0] ?? 'en');
  const speaksMain = candidate.languages.some((code) => primaryLanguage(code) === main);
  parts.push({
    weight: MATCH_WEIGHTS.language,
    value: speaksMain ? 1 : 0.5,
    reason: speaksMain
      ? `Speaks the study's main language (${main})`
      : `Speaks one of the study's languages, not its main one (${main})`,
  });

  if (study.soughtNeeds.length > 0) {
    const has = new Set<AccessNeed>(candidate.accessNeeds);
    for (const technology of candidate.assistiveTechnologies) {
      const need = NEED_OF_TECHNOLOGY[technology];
      if (need) has.add(need);
    }
    const covered = study.soughtNeeds.filter((need) => has.has(need));
    parts.push({
      weight: MATCH_WEIGHTS.accessNeeds,
      value: covered.length / study.soughtNeeds.length,
      reason: covered.length
        ? `Lives with ${listed(covered.map((need) => NEED_NAMES[need]))}, which the study looks for`
        : `Has none of the access needs the study looks for (${listed(study.soughtNeeds.map((need) => NEED_NAMES[need]))})`,
    });
  }

  const sessions = candidate.completedSessions;
  parts.push({
    weight: MATCH_WEIGHTS.experience,
    value: Math.min(1, sessions / EXPERIENCED_AFTER),
    reason:
      sessions === 0
        ? 'New tester: no completed session yet'
        : `Completed ${sessions} session${sessions === 1 ? '' : 's'}`,
  });
  parts.push({
    weight: MATCH_WEIGHTS.rating,
    value: candidate.meanRating === null ? UNRATED : Math.max(0, (candidate.meanRating - 1) / 4),
    reason:
      candidate.meanRating === null
        ? 'Not rated yet'
        : `Average session rating ${candidate.meanRating.toFixed(1)} out of 5`,
  });

  const idleDays =
    candidate.lastActiveAt === null
      ? null
      : Math.max(0, Math.floor((now.getTime() - candidate.lastActiveAt.getTime()) / DAY_MS));
  parts.push({
    weight: MATCH_WEIGHTS.recency,
    // Full within a month, falling to nothing after a year.
    value: idleDays === null ? NEVER_ACTIVE : idleDays <= 30 ? 1 : Math.max(0, 1 - (idleDays - 30) / 335),
    reason:
      idleDays === null
        ? 'No session yet'
        : idleDays <= 30
          ? 'Active in the last 30 days'
          : `Last active ${idleDays} days ago`,
  });
  return parts;
}

/** A candidate's score (0-1) from the weighted parts that apply to the study, and its reasons. */
export function scoreCandidate(candidate: MatchCandidate, study: MatchStudy, now: Date): RankedCandidate {
  const parts = partsOf(candidate, study, now);
  const weight = parts.reduce((sum, part) => sum + part.weight, 0);
  const score = parts.reduce((sum, part) => sum + part.weight * part.value, 0) / weight;
  return { testerId: candidate.testerId, score: round4(score), reasons: parts.map((part) => part.reason) };
}

const round4 = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
const byScore = (a: RankedCandidate, b: RankedCandidate) =>
  b.score - a.score || (a.testerId < b.testerId ? -1 : a.testerId > b.testerId ? 1 : 0);

/**
 * The `count` best candidates, best first, ties broken by tester id so a run is repeatable. In an
 * A/B study the picks also keep the study's devices balanced (the variants are assigned in
 * creation order, so a balanced pool gives each variant a similar mix): each pick takes the best
 * of the candidates grouped by main device, with BALANCE_WEIGHT of its score for how few of that
 * device are picked so far.
 */
export function rankCandidates(
  candidates: readonly MatchCandidate[],
  study: MatchStudy,
  count: number,
  now: Date,
): RankedCandidate[] {
  if (count <= 0) return [];
  if (!study.abTestEnabled) {
    return candidates
      .map((candidate) => scoreCandidate(candidate, study, now))
      .sort(byScore)
      .slice(0, count);
  }
  const groups = new Map<Device, RankedCandidate[]>();
  for (const candidate of candidates) {
    const device = study.devices.find((d) => candidate.devices.includes(d)) ?? study.devices[0]!;
    const group = groups.get(device) ?? [];
    group.push(scoreCandidate(candidate, study, now));
    groups.set(device, group);
  }
  for (const group of groups.values()) group.sort(byScore);
  const next = new Map<Device, number>([...groups.keys()].map((device) => [device, 0]));
  const picked: RankedCandidate[] = [];
  const pickedOf = new Map<Device, number>();
  while (picked.length < count) {
    let best: { device: Device; adjusted: number; candidate: RankedCandidate } | undefined;
    for (const [device, group] of groups) {
      const candidate = group[next.get(device)!];
      if (!candidate) continue;
      const balance = 1 - (pickedOf.get(device) ?? 0) / Math.max(1, picked.length);
      const adjusted = (1 - BALANCE_WEIGHT) * candidate.score + BALANCE_WEIGHT * balance;
      if (
        !best ||
        adjusted > best.adjusted ||
        (adjusted === best.adjusted && byScore(candidate, best.candidate) < 0)
      ) {
        best = { device, adjusted, candidate };
      }
    }
    if (!best) break;
    next.set(best.device, next.get(best.device)! + 1);
    pickedOf.set(best.device, (pickedOf.get(best.device) ?? 0) + 1);
    picked.push({
      testerId: best.candidate.testerId,
      score: best.candidate.score,
      reasons: [...best.candidate.reasons, `Keeps the A/B variants balanced: a ${best.device} tester`],
    });
  }
  return picked;
}
