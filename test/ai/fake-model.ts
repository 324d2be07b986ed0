import type { ModelRequest } from './provider-servers.ts';

interface Material {
  tone?: string;
  format?: string;
  moments?: { momentId: string; evidence: string }[];
  findings?: { findingId: string; evidence?: string; note?: string }[];
  patterns?: { patternId: string }[];
  topFindings?: { findingId: string }[];
  recommendationCriteria?: string[];
}

/** The material the service put into the prompt (after "Material:"). */
export function materialOf(prompt: string): Material {
  return JSON.parse(prompt.slice(prompt.indexOf('Material:\n') + 'Material:\n'.length)) as Material;
}

/**
 * A stand-in model that answers each agent in the shape it asked for, signing its words with the
 * provider's name. It also tries to change facts (severities, scores) to prove they are ignored.
 */
export function fakeModel(request: ModelRequest): string {
  const who = request.provider;
  const material = materialOf(request.prompt);
  const agent = /Agent (\d)/.exec(request.system)?.[1];
  if (agent === '1') {
    return JSON.stringify({
      summary: `${who} summary of ${material.moments?.length ?? 0} moments`,
      moments: (material.moments ?? []).map((m) => ({
        momentId: m.momentId,
        context: `${who}: ${m.evidence}`,
      })),
      overallFrustrationScore: 0.99,
    });
  }
  if (agent === '2') {
    return JSON.stringify({
      summary: `${who} reviewed the session`,
      findings: (material.findings ?? []).map((f) => ({
        findingId: f.findingId,
        title: `${who} title`,
        description: `${who} describes: ${f.evidence}`,
        severity: 'low',
      })),
      patterns: (material.patterns ?? []).map((p) => ({
        patternId: p.patternId,
        description: `${who} pattern`,
      })),
    });
  }
  if (agent === '3') {
    const tone = material.tone ?? '?';
    return JSON.stringify({
      findings: (material.findings ?? []).map((f) => ({
        findingId: f.findingId,
        title: `${who} ${tone} title`,
        description: `${who} technical: ${f.note}`,
        plainEnglish: `[${tone}] ${who} plain words`,
        severity: 'low',
        wcag: { criterion: '1.1.1', level: 'A' },
      })),
      recommendations: (material.recommendationCriteria ?? []).map((criterion) => ({
        criterion,
        text: `[${tone}] ${who} suggests a fix`,
      })),
      ...(material.format === 'narrative' ? { narrative: `[${tone}] ${who} tells the story` } : {}),
      overallScore: 1,
    });
  }
  return JSON.stringify({
    summary: `${who} compared the sessions`,
    topFindings: (material.topFindings ?? []).map((f) => ({
      findingId: f.findingId,
      title: `${who} barrier`,
    })),
    recommendations: [`${who} recommends fixing the top barrier first`],
    studyScore: 1,
  });
}
