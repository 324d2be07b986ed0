import type { FindingSeverity, WcagLevel } from '../domain.ts';
import { RECOMMENDATION_FOR } from './recommendations.ts';
import { mostSevereFirst, severityRank } from './signals.ts';

/** One tester report as Agent 4 reads it. */
export interface ReportSummary {
  readonly sessionId: string;
  readonly testerId: string;
  readonly variant: string | null;
  readonly overallScore: number;
  readonly findings: readonly {
    readonly findingId: string;
    readonly severity: FindingSeverity;
    readonly title: string;
    readonly affectedFlow: string;
    /** The order of the study task it happened in (from the report's task sections), if any. */
    readonly taskOrder: number | null;
    readonly wcag: { readonly criterion: string; readonly level: WcagLevel } | null;
  }[];
}

export interface TesterProfileSummary {
  readonly testerId: string;
  readonly devices: readonly string[];
  readonly accessNeeds: readonly string[];
  readonly country: string | null;
  readonly birthYear: number | null;
}

export type Dimension = 'device' | 'accessNeeds' | 'country' | 'ageBand';
export const DIMENSIONS: readonly Dimension[] = ['accessNeeds', 'device', 'ageBand', 'country'];

/** The same barrier met by several testers: findings with one criterion on one element or flow. */
export interface BarrierCluster {
  readonly findingId: string;
  readonly severity: FindingSeverity;
  readonly title: string;
  readonly wcag: { readonly criterion: string; readonly level: WcagLevel } | null;
  readonly affectedFlow: string;
  /** The study task the barrier was met in; tasks are told apart by order, as titles may repeat. */
  readonly taskOrder: number | null;
  readonly affectedSessionCount: number;
  readonly sessionIds: readonly string[];
}

export interface GroupSummary {
  readonly sessionCount: number;
  readonly avgScore: number;
  /** Cluster ids met in this group, the most frequent first (at most five). */
  readonly barriers: readonly string[];
}

export interface AggregateFacts {
  readonly sessionCount: number;
  readonly studyScore: number;
  readonly clusters: readonly BarrierCluster[];
  readonly topFindings: readonly BarrierCluster[];
  readonly variantComparison: Readonly<Record<string, { avgScore: number; sessionCount: number }>>;
  readonly widespreadBarriers: readonly { findingId: string; affectedSessionCount: number; share: number }[];
  readonly profileSpecificBarriers: readonly {
    findingId: string;
    dimension: Dimension;
    value: string;
    affectedSessionCount: number;
    groupSessionCount: number;
  }[];
  readonly stratification: Readonly<Record<Dimension, Readonly<Record<string, GroupSummary>>>>;
  readonly recommendationCriteria: readonly string[];
}

const TOP_FINDINGS = 10;
/** Met by at least half of the sessions, and by two at least: a barrier of the product. */
const WIDESPREAD_SHARE = 0.5;

/** Whether a barrier met in `affected` of `sessions` sessions is widespread among them. */
export const isWidespread = (affected: number, sessions: number): boolean =>
  affected >= 2 && sessions > 0 && affected / sessions >= WIDESPREAD_SHARE;

/**
 * Agent 4's facts, computed and not guessed: study score (mean of the report scores), barrier
 * clusters across sessions, variant comparison, widespread versus profile-specific barriers and
 * the stratification by device, access needs, country and age band.
 */
export function aggregateStudy(input: {
  reports: readonly ReportSummary[];
  profiles: readonly TesterProfileSummary[];
  includeVariantComparison: boolean;
  referenceYear: number;
}): AggregateFacts {
  const { reports } = input;
  const profiles = new Map(input.profiles.map((p) => [p.testerId, p]));
  const groupsOf = new Map(
    reports.map((r) => [r.sessionId, profileGroups(profiles.get(r.testerId), input.referenceYear)]),
  );
  const clusters = clusterFindings(reports);
  const scoreOf = new Map(reports.map((r) => [r.sessionId, r.overallScore]));

  const widespreadBarriers = clusters
    .filter((c) => isWidespread(c.affectedSessionCount, reports.length))
    .map((c) => ({
      findingId: c.findingId,
      affectedSessionCount: c.affectedSessionCount,
      share: round(c.affectedSessionCount / reports.length, 3),
    }));
  const widespread = new Set(widespreadBarriers.map((b) => b.findingId));
  const profileSpecificBarriers = clusters
    .filter((c) => !widespread.has(c.findingId))
    .flatMap((c) => {
      const found = sharedProfile(c, reports, groupsOf);
      return found
        ? [{ findingId: c.findingId, ...found, affectedSessionCount: c.affectedSessionCount }]
        : [];
    });

  const stratification = Object.fromEntries(
    DIMENSIONS.map((dimension) => {
      const members = new Map<string, string[]>();
      for (const report of reports) {
        for (const value of groupsOf.get(report.sessionId)![dimension]) {
          members.set(value, [...(members.get(value) ?? []), report.sessionId]);
        }
      }
      const groups = [...members.entries()].sort(([a], [b]) => a.localeCompare(b));
      return [
        dimension,
        Object.fromEntries(groups.map(([value, ids]) => [value, summarise(ids, scoreOf, clusters)])),
      ];
    }),
  ) as AggregateFacts['stratification'];

  const variantComparison: Record<string, { avgScore: number; sessionCount: number }> = {};
  if (input.includeVariantComparison) {
    const byVariant = new Map<string, number[]>();
    for (const r of reports) {
      if (r.variant) byVariant.set(r.variant, [...(byVariant.get(r.variant) ?? []), r.overallScore]);
    }
    for (const [label, scores] of [...byVariant].sort(([a], [b]) => a.localeCompare(b))) {
      variantComparison[label] = { avgScore: round(mean(scores), 1), sessionCount: scores.length };
    }
  }

  const topFindings = clusters.slice(0, TOP_FINDINGS);
  return {
    sessionCount: reports.length,
    studyScore: round(mean(reports.map((r) => r.overallScore)), 1),
    clusters,
    topFindings,
    variantComparison,
    widespreadBarriers,
    profileSpecificBarriers,
    stratification,
    recommendationCriteria: [
      ...new Set(
        topFindings.flatMap((c) =>
          c.wcag && RECOMMENDATION_FOR[c.wcag.criterion] ? [c.wcag.criterion] : [],
        ),
      ),
    ],
  };
}

function clusterFindings(reports: readonly ReportSummary[]): BarrierCluster[] {
  const clusters = new Map<
    string,
    { cluster: Omit<BarrierCluster, 'affectedSessionCount' | 'sessionIds'>; sessions: Set<string> }
  >();
  for (const report of reports) {
    for (const finding of report.findings) {
      const place = finding.taskOrder === null ? `flow:${finding.affectedFlow}` : `task:${finding.taskOrder}`;
      const key = `${finding.wcag?.criterion ?? 'none'}|${place}`;
      const existing = clusters.get(key);
      if (existing) {
        existing.sessions.add(report.sessionId);
        if (severityRank(finding.severity) > severityRank(existing.cluster.severity)) {
          existing.cluster = { ...existing.cluster, severity: finding.severity };
        }
        continue;
      }
      clusters.set(key, {
        cluster: {
          findingId: `barrier-${fnv1a(key)}`,
          severity: finding.severity,
          title: finding.title,
          wcag: finding.wcag,
          affectedFlow: finding.affectedFlow,
          taskOrder: finding.taskOrder,
        },
        sessions: new Set([report.sessionId]),
      });
    }
  }
  return [...clusters.values()]
    .map(({ cluster, sessions }) => ({
      ...cluster,
      affectedSessionCount: sessions.size,
      sessionIds: [...sessions],
    }))
    .sort(
      (a, b) =>
        mostSevereFirst(a, b) ||
        b.affectedSessionCount - a.affectedSessionCount ||
        a.findingId.localeCompare(b.findingId),
    );
}

type Groups = Readonly<Record<Dimension, readonly string[]>>;

/** A tester's groups; a tester with several devices or needs belongs to each of them. */
function profileGroups(profile: TesterProfileSummary | undefined, referenceYear: number): Groups {
  return {
    device: profile?.devices.length ? [...profile.devices] : ['unknown'],
    accessNeeds: profile ? (profile.accessNeeds.length ? [...profile.accessNeeds] : ['none']) : ['unknown'],
    country: [profile?.country ?? 'unknown'],
    ageBand: [ageBand(profile?.birthYear ?? null, referenceYear)],
  };
}

export function ageBand(birthYear: number | null, referenceYear: number): string {
  if (birthYear === null) return 'unknown';
  const age = referenceYear - birthYear;
  if (age < 18) return 'under 18';
  if (age >= 65) return '65+';
  const bands: readonly [number, string][] = [
    [25, '18-24'],
    [35, '25-34'],
    [45, '35-44'],
    [55, '45-54'],
    [65, '55-64'],
  ];
  return bands.find(([below]) => age < below)![1];
}

/**
 * A barrier is profile-specific when every session it affects shares a group that some unaffected
 * session lacks; the smallest such group names it.
 */
function sharedProfile(
  cluster: BarrierCluster,
  reports: readonly ReportSummary[],
  groupsOf: ReadonlyMap<string, Groups>,
): { dimension: Dimension; value: string; groupSessionCount: number } | undefined {
  let best: { dimension: Dimension; value: string; groupSessionCount: number } | undefined;
  for (const dimension of DIMENSIONS) {
    const candidates = cluster.sessionIds
      .map((id) => new Set(groupsOf.get(id)![dimension]))
      .reduce((shared, next) => new Set([...shared].filter((v) => next.has(v))));
    for (const value of candidates) {
      if (value === 'unknown') continue;
      const members = reports.filter((r) => groupsOf.get(r.sessionId)![dimension].includes(value)).length;
      if (members === reports.length) continue;
      if (!best || members < best.groupSessionCount) best = { dimension, value, groupSessionCount: members };
    }
  }
  return best;
}

function summarise(
  sessionIds: readonly string[],
  scoreOf: ReadonlyMap<string, number>,
  clusters: readonly BarrierCluster[],
): GroupSummary {
  const members = new Set(sessionIds);
  const counted = clusters
    .map((c) => ({ id: c.findingId, n: c.sessionIds.filter((id) => members.has(id)).length }))
    .filter((c) => c.n > 0)
    .sort((a, b) => b.n - a.n);
  return {
    sessionCount: sessionIds.length,
    avgScore: round(mean(sessionIds.map((id) => scoreOf.get(id)!)), 1),
    barriers: counted.slice(0, 5).map((c) => c.id),
  };
}

/** FNV-1a over the key: a short, stable id for a cluster, the same in every run. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

const mean = (values: readonly number[]) =>
  values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
const round = (value: number, digits: number) => Number(value.toFixed(digits));
