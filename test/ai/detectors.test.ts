import assert from 'node:assert/strict';
import { findBarrierMoments } from '../../lib/analysis/barrier-moments.ts';
import { deadClickMoments, errorMoments, rageClickMoments } from '../../lib/analysis/detectors/clicks.ts';
import { facialMoments } from '../../lib/analysis/detectors/facial.ts';
import {
  fieldStruggleMoments,
  focusCyclingMoments,
  formAbandonmentMoments,
  inputCorrectionMoments,
} from '../../lib/analysis/detectors/forms.ts';
import { navigationMoments, scrollHuntingMoments } from '../../lib/analysis/detectors/navigation.ts';
import { longHesitationMoments } from '../../lib/analysis/detectors/pauses.ts';
import { voiceMoments } from '../../lib/analysis/detectors/voice.ts';
import { analyseSignals } from '../../lib/analysis/signal-analysis.ts';
import type { SessionSignals } from '../../lib/analysis/signals.ts';
import { buildTimeline } from '../../lib/analysis/timeline.ts';
import { event, frame, session, speech, t } from './signal-builders.ts';
import { calmSession } from './synthetic-session.ts';

const kinds = (signals: SessionSignals) => findBarrierMoments(signals).map((m) => m.kind);

describe('signal-analysis core', () => {
  describe('a calm session', () => {
    const calm = buildTimeline(calmSession());

    it('every detector stays quiet', () => {
      const { events, frames, speech: spoken } = calm;
      const rage = rageClickMoments(events);
      const results = {
        errors: errorMoments(events),
        rage: rage.moments,
        dead: deadClickMoments(events, rage.clicks),
        fieldStruggle: fieldStruggleMoments(events),
        focusCycling: focusCyclingMoments(events),
        formAbandonment: formAbandonmentMoments(events),
        inputCorrections: inputCorrectionMoments(events),
        navigation: navigationMoments(events),
        scrollHunting: scrollHuntingMoments(events),
        longHesitation: longHesitationMoments(events),
        facial: facialMoments(frames),
        voice: voiceMoments(spoken),
      };
      for (const [detector, moments] of Object.entries(results)) {
        assert.deepEqual(moments, [], `${detector} fired on a calm session`);
      }
    });

    it('scores low frustration and has no attention drops', () => {
      const analysis = analyseSignals(calmSession());
      assert.deepEqual(analysis.moments, []);
      assert.deepEqual(analysis.attentionDropTimestamps, []);
      assert.ok(analysis.overallFrustrationScore < 0.1, String(analysis.overallFrustrationScore));
    });
  });

  describe('each detector fires on its pattern', () => {
    it('rage clicks: 3+ clicks on one element, each within 2 s', () => {
      const clicks = [0, 0.4, 0.8, 1.2].map((s) => event('click', s, '#pay'));
      const [moment] = findBarrierMoments(session({ events: clicks }));
      assert.equal(moment!.kind, 'rage_clicks');
      assert.equal(moment!.severity, 'medium');
      assert.match(moment!.evidence, /4 clicks on `#pay` within 1\.2 s/);
      const many = [0, 0.3, 0.6, 0.9, 1.2, 1.5].map((s) => event('click', s, '#pay'));
      assert.equal(findBarrierMoments(session({ events: many }))[0]!.severity, 'high');
      assert.deepEqual(
        kinds(session({ events: [event('click', 0, '#pay'), event('click', 3, '#pay')] })),
        [],
      );
    });

    it('dead clicks: repeated clicks that cause no navigation, input or focus change', () => {
      const dead = [event('click', 0, '.card'), event('click', 5, '.card'), event('scroll', 20, 'window')];
      assert.deepEqual(kinds(session({ events: dead })), ['dead_clicks']);
      const answered = [
        event('click', 0, '.card'),
        event('navigation', 0.5, '/card'),
        event('click', 5, '.card'),
        event('focus', 5.2, '#q'),
        event('scroll', 20, 'window'),
      ];
      assert.deepEqual(kinds(session({ events: answered })), []);
      // The recording stops right after: nobody can tell whether the click was answered.
      assert.deepEqual(kinds(session({ events: dead.slice(0, 2) })), []);
    });

    it('error events, a burst on one element being one moment', () => {
      const errors = [event('error', 0, '#card'), event('error', 2, '#card'), event('error', 30, '#zip')];
      const moments = findBarrierMoments(session({ events: errors }));
      assert.deepEqual(
        moments.map((m) => [m.kind, m.target, m.severity]),
        [
          ['error', '#card', 'high'],
          ['error', '#zip', 'high'],
        ],
      );
      assert.match(moments[0]!.evidence, /2 errors were raised at `#card`/);
    });

    it('navigation loops: one page reached 3 times within 2 minutes', () => {
      const pages = ['/a', '/b', '/a', '/c', '/a'].map((page, i) => event('navigation', i * 20, page));
      const moments = findBarrierMoments(session({ events: pages }));
      assert.deepEqual(
        moments.map((m) => [m.kind, m.target]),
        [['navigation_loop', '/a']],
      );
    });

    it('back-tracking: straight back to the previous page within 10 s', () => {
      const pages = [
        event('navigation', 0, '/a'),
        event('navigation', 20, '/b'),
        event('navigation', 25, '/a'),
      ];
      assert.deepEqual(kinds(session({ events: pages })), ['back_tracking']);
      const slow = [
        event('navigation', 0, '/a'),
        event('navigation', 20, '/b'),
        event('navigation', 50, '/a'),
      ];
      assert.deepEqual(kinds(session({ events: slow })), []);
    });

    it('long hesitation: no interaction for a minute or more between two interactions', () => {
      const stall = [event('click', 0, '#next'), event('focus', 1, '#q'), event('click', 95, '#help')];
      const [moment] = findBarrierMoments(session({ events: stall }));
      assert.equal(moment!.kind, 'long_hesitation');
      assert.equal(moment!.target, '#q');
      assert.match(moment!.evidence, /no interaction for 94 s/);
      assert.deepEqual(kinds(session({ events: [event('click', 0, '#a'), event('click', 50, '#b')] })), []);
    });

    it('focus cycling: focus going round the same few elements (a possible keyboard trap)', () => {
      const cycle = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => event('focus', i, ['#a', '#b', '#c'][i % 3]!));
      const [moment] = findBarrierMoments(session({ events: cycle }));
      assert.equal(moment!.kind, 'focus_cycling');
      assert.equal(moment!.severity, 'high');
      const tabbing = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => event('focus', i, `#f${i}`));
      assert.deepEqual(kinds(session({ events: tabbing })), []);
    });

    it('form abandonment: fields filled in, then the page left without submitting', () => {
      const typed = [1, 2, 3, 4, 5].map((n) => event('input', 1 + n * 0.2, '#name', { inputLength: n }));
      const left = [event('navigation', 0, '/form'), ...typed, event('navigation', 10, '/home')];
      const [moment] = findBarrierMoments(session({ events: left }));
      assert.equal(moment!.kind, 'form_abandonment');
      assert.equal(moment!.target, '#name');
      const sent = [
        event('navigation', 0, '/form'),
        ...typed,
        event('click', 5, '#submit'),
        event('navigation', 6, '/done'),
      ];
      assert.deepEqual(kinds(session({ events: sent })), []);
    });

    it('repeated input corrections: inputLength going down and up again', () => {
      const lengths = [5, 2, 6, 0, 7];
      const corrected = lengths.map((n, i) => event('input', i, '#card', { inputLength: n }));
      const [moment] = findBarrierMoments(session({ events: corrected }));
      assert.equal(moment!.kind, 'input_corrections');
      assert.match(moment!.evidence, /deleted and typed again 2 times/);
      const typo = [3, 4, 3, 4, 5].map((n, i) => event('input', i, '#card', { inputLength: n }));
      assert.deepEqual(kinds(session({ events: typo })), []);
    });

    it('field struggle: a field focused three times and typed into', () => {
      const events = [
        event('focus', 0, '#email'),
        event('input', 1, '#email', { inputLength: 3 }),
        event('focus', 5, '#email'),
        event('focus', 9, '#email'),
      ];
      assert.deepEqual(kinds(session({ events })), ['field_struggle']);
    });

    it('scroll hunting: the scroll direction changing 4+ times within 10 s', () => {
      const ys = [0, 500, 100, 600, 200, 700];
      const scrolls = ys.map((y, i) => event('scroll', i, 'window', { scrollY: y }));
      assert.deepEqual(kinds(session({ events: scrolls })), ['scroll_hunting']);
    });

    it('facial frustration and confusion peaks, apart', () => {
      const angry = [frame(0, { angry: 0.9, neutral: 0.1 }), frame(1, { angry: 0.9, neutral: 0.1 })];
      const confused = [
        frame(10, { confused: 0.7, neutral: 0.3 }),
        frame(11, { confused: 0.7, neutral: 0.3 }),
      ];
      const moments = findBarrierMoments(session({ facial: [...angry, ...confused] }));
      assert.deepEqual(
        moments.map((m) => [m.kind, m.severity]),
        [
          ['frustration_peak', 'high'],
          ['confusion_peak', 'medium'],
        ],
      );
      assert.deepEqual(kinds(session({ facial: [frame(0, { angry: 0.9, neutral: 0.1 })] })), []);
    });

    it('attention drops, which give attentionDropTimestamps', () => {
      const low = (s: number) => frame(s, { neutral: 1 }, { attention: 0.1 });
      const facial = [
        frame(0, { neutral: 1 }),
        low(1),
        low(2),
        low(3),
        frame(4, { neutral: 1 }),
        low(10),
        low(11),
      ];
      const analysis = analyseSignals(session({ facial }));
      assert.deepEqual(
        analysis.moments.map((m) => m.kind),
        ['attention_drop', 'attention_drop'],
      );
      assert.deepEqual(analysis.attentionDropTimestamps, [t(1), t(10)]);
    });

    it('negative sentiment with hesitation in voice', () => {
      const moments = findBarrierMoments(
        session({ voice: [speech(0, -0.6), speech(10, -0.6, 4), speech(20, 0, 4)] }),
      );
      assert.deepEqual(
        moments.map((m) => [m.kind, m.severity]),
        [
          ['verbal_frustration', 'medium'],
          ['verbal_frustration', 'high'],
          ['hesitation', 'low'],
        ],
      );
    });
  });

  describe('what analysis must not see', () => {
    it('frames with faceDetected false and PII-flagged unsanitised voice are excluded', () => {
      const hidden = [
        frame(0, { angry: 0.95 }, { faceDetected: false, attention: 0.1 }),
        frame(1, { angry: 0.95 }, { faceDetected: false, attention: 0.1 }),
      ];
      const flagged = speech(5, -0.9, 5, { containsPii: true });
      const analysis = analyseSignals(session({ facial: hidden, voice: [flagged] }));
      assert.deepEqual(analysis.moments, []);
      assert.equal(analysis.overallFrustrationScore, 0);
      assert.deepEqual(kinds(session({ voice: [{ ...flagged, sanitised: true }] })), ['verbal_frustration']);
    });
  });

  describe('timeline and score', () => {
    it('merges events, frames and voice into one timeline in time order, cut at snapshotAt and by kind', () => {
      const signals = session({
        events: [event('click', 2, '#a'), event('click', 8, '#b')],
        facial: [frame(1, { neutral: 1 }), frame(5, { neutral: 1 })],
        voice: [speech(3, 0)],
      });
      const timeline = buildTimeline(signals);
      assert.deepEqual(
        timeline.entries.map((e) => [e.source, e.at.getTime()]),
        [
          ['facial', t(1).getTime()],
          ['event', t(2).getTime()],
          ['voice', t(3).getTime()],
          ['facial', t(5).getTime()],
          ['event', t(8).getTime()],
        ],
      );
      assert.equal(buildTimeline(signals, { until: t(4) }).entries.length, 3);
      assert.deepEqual(
        buildTimeline(signals, { include: ['voice'] }).entries.map((e) => e.source),
        ['voice'],
      );
    });

    it('overallFrustrationScore is the documented weighted mean of the components present', () => {
      const voiceOnly = analyseSignals(session({ voice: [speech(0, -0.5), speech(10, -0.5)] }));
      assert.equal(voiceOnly.overallFrustrationScore, 0.5);
      const both = analyseSignals(
        session({ facial: [frame(0, { angry: 0.8, neutral: 0.2 })], voice: [speech(0, -0.5)] }),
      );
      // (0.4 x 0.8 + 0.3 x 0.5) / 0.7
      assert.equal(both.overallFrustrationScore, 0.671);
      const struggle = analyseSignals(
        session({ events: [0, 0.5, 1, 1.5, 2, 2.5, 3].map((s) => event('click', s, '#pay')) }),
      );
      // One high barrier in a session shorter than a minute: 1 - e^-0.75.
      assert.equal(struggle.overallFrustrationScore, 0.528);
    });
  });
});
