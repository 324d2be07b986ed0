import assert from 'node:assert/strict';
import { findingsOf } from '../../lib/analysis/findings.ts';
import { buildSessionReport, type ConfirmedNote } from '../../lib/analysis/session-report.ts';
import { analyseSignals } from '../../lib/analysis/signal-analysis.ts';
import type { EventSignal, SessionSignals, VoiceSignal } from '../../lib/analysis/signals.ts';
import { assignVariant } from '../../lib/assign-variant.ts';
import { event, frame as faceFrame, session as signals, speech, t } from '../ai/signal-builders.ts';

/** Agent 2's facts, as its agent computes them: the core's moments, then the findings. */
const analyseSession = (input: SessionSignals) => {
  const { timeline, moments } = analyseSignals(input);
  return findingsOf(timeline, moments);
};
const click = (s: number, target = '#pay'): EventSignal => event('click', s, target);
const frame = (s: number, angry: number, faceDetected = true) =>
  faceFrame(s, { angry, neutral: 1 - angry }, { faceDetected });
const voice = (s: number, score: number, extra: Partial<VoiceSignal> = {}) => speech(s, score, 0, extra);

describe('Agent 2 signal analysis', () => {
  it('turns repeated clicks into a WCAG 4.1.2 finding naming the element and the count', () => {
    const [finding, ...rest] = analyseSession(signals({ events: [click(0), click(0.5), click(1)] }));
    assert.equal(rest.length, 0);
    assert.equal(finding!.wcag.criterion, '4.1.2');
    assert.equal(finding!.severity, 'medium');
    assert.match(finding!.content, /3 clicks on `#pay` within 1\.0 s/);
  });

  it('two clicks are not a barrier', () => {
    assert.deepEqual(analyseSession(signals({ events: [click(0), click(0.5)] })), []);
  });

  it('a facial or voice reaction near a barrier raises its severity one level per kind of signal', () => {
    const events = [click(0), click(0.5), click(1)];
    const facial = [frame(2, 0.8), frame(3, 0.8)];
    const [finding] = analyseSession(signals({ events, facial, voice: [voice(2, -0.6)] }));
    assert.equal(finding!.severity, 'critical');
    assert.deepEqual([...finding!.corroboratedBy].sort(), ['frustration_peak', 'verbal_frustration']);
  });

  it('frames with face_detected = false are excluded from analysis', () => {
    const facial = [frame(2, 0.95, false), frame(3, 0.95, false)];
    assert.deepEqual(analyseSession(signals({ facial })), []);
    assert.equal(
      analyseSession(signals({ facial: facial.map((f) => ({ ...f, faceDetected: true })) })).length,
      1,
    );
  });

  it('PII-flagged voice is excluded until sanitised', () => {
    const flagged = voice(10, -0.9, { containsPii: true });
    assert.deepEqual(analyseSession(signals({ voice: [flagged] })), []);
    const sanitised = analyseSession(signals({ voice: [{ ...flagged, sanitised: true }] }));
    assert.equal(sanitised.length, 1);
    assert.equal(sanitised[0]!.kind, 'verbal_frustration');
  });

  it('a criterion that recurs three times is raised as a cross-task pattern', () => {
    const events: EventSignal[] = [0, 100, 200].map((s) => ({
      type: 'error',
      target: `#f${s}`,
      at: t(s),
      scrollY: null,
    }));
    const findings = analyseSession(signals({ events }));
    assert.equal(findings.length, 3);
    assert.ok(findings.every((f) => f.severity === 'critical' && f.patternCount === 3));
  });
});

describe('Agent 3 report', () => {
  const note = (id: string, severity: ConfirmedNote['severity']): ConfirmedNote => ({
    noteId: id,
    content: `A control did not respond as expected: finding ${id}`,
    annotation: null,
    severity,
    wcagCriterion: '4.1.2',
    wcagLevel: 'A',
    at: t(0),
    target: '#pay',
  });

  it('is built from the notes it is given: score falls with their severity, one finding per note', () => {
    const report = buildSessionReport([note('a', 'high'), note('b', 'low')], [], 'moderate');
    assert.deepEqual(
      report.findings.map((f) => f.findingId),
      ['a', 'b'],
    );
    assert.equal(report.overallScore, 100 - 15 - 3);
    assert.equal(report.recommendations.length, 1);
    assert.match(report.recommendations[0]!, /4\.1\.2/);
  });

  it("has a section per task; names each finding's task, and says what the task cost in the study's tone", () => {
    const tasks = [
      { order: 1, title: 'Find', outcome: 'completed' as const, activeMs: 42_000, ease: 6 },
      { order: 2, title: 'Pay', outcome: 'abandoned' as const, activeMs: 200_000, ease: 2 },
      { order: 3, title: 'Leave', outcome: null, activeMs: null, ease: null },
    ];
    const report = buildSessionReport(
      [{ ...note('a', 'critical'), task: { order: 2, title: 'Pay' } }, note('b', 'low')],
      [],
      'supportive',
      'structured',
      tasks,
    );
    assert.deepEqual(
      report.findings.map((f) => f.affectedFlow),
      ['Pay', '#pay'],
    );
    assert.equal(
      report.findings[0]!.plainEnglish,
      'This got in your way: a control did not respond as expected in the task "Pay". It kept you from finishing the task after 3 min 20 s. You rated it 2 of 7 for ease.',
    );
    assert.equal(
      report.findings[1]!.plainEnglish,
      'Good to know: a control did not respond as expected at #pay.',
    );
    assert.deepEqual(report.tasks, [
      { order: 1, title: 'Find', outcome: 'completed', timeOnTaskSeconds: 42, ease: 6, findingIds: [] },
      { order: 2, title: 'Pay', outcome: 'abandoned', timeOnTaskSeconds: 200, ease: 2, findingIds: ['a'] },
      {
        order: 3,
        title: 'Leave',
        outcome: 'not_attempted',
        timeOnTaskSeconds: null,
        ease: null,
        findingIds: [],
      },
    ]);
  });

  it('the emotional profile ignores frames without a face', () => {
    const report = buildSessionReport([], [frame(0, 0.5), frame(1, 1, false)], 'standard');
    assert.equal(report.emotionalProfile.avgFrustration, 0.5);
  });
});

describe('variant assignment', () => {
  it('keeps assignments on the split ratio at every count (70/30 over ten sessions)', () => {
    const counts = new Map<string, number>();
    const sequence: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const label = assignVariant(
        [
          { label: 'A', share: 0.7 },
          { label: 'B', share: 0.3 },
        ],
        counts,
      );
      counts.set(label, (counts.get(label) ?? 0) + 1);
      sequence.push(label);
    }
    assert.equal(counts.get('A'), 7);
    assert.equal(counts.get('B'), 3);
    assert.deepEqual(sequence.slice(0, 4), ['A', 'B', 'A', 'A']);
  });
});
