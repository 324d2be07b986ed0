import assert from 'node:assert/strict';
import {
  rankCandidates,
  scoreCandidate,
  soughtNeeds,
  type MatchCandidate,
  type MatchStudy,
} from '../../activities/matching/rank-candidates.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);

const candidate = (testerId: string, fields: Partial<MatchCandidate> = {}): MatchCandidate => ({
  testerId,
  devices: ['desktop'],
  languages: ['en-GB'],
  accessNeeds: [],
  assistiveTechnologies: [],
  completedSessions: 0,
  meanRating: null,
  lastActiveAt: null,
  ...fields,
});
const study = (fields: Partial<MatchStudy> = {}): MatchStudy => ({
  devices: ['desktop'],
  languages: ['en'],
  soughtNeeds: [],
  abTestEnabled: false,
  ...fields,
});

describe('matching: ranking eligible testers (activities/matching/rank-candidates.ts)', () => {
  it('a score is between 0 and 1 with four decimals, and the reasons are sentences, one per part', () => {
    const ranked = scoreCandidate(candidate('a'), study(), NOW);
    assert.ok(ranked.score > 0 && ranked.score < 1, String(ranked.score));
    assert.equal(ranked.score, Math.round(ranked.score * 10_000) / 10_000);
    assert.deepEqual(ranked.reasons, [
      'Tests on every device the study asks for (desktop)',
      "Speaks the study's main language (en)",
      'New tester: no completed session yet',
      'Not rated yet',
      'No session yet',
    ]);
  });

  it('fitting more of the study devices scores higher and says how many', () => {
    const wanted = study({ devices: ['desktop', 'mobile'] });
    const both = scoreCandidate(candidate('a', { devices: ['desktop', 'mobile'] }), wanted, NOW);
    const one = scoreCandidate(candidate('b', { devices: ['mobile', 'tablet'] }), wanted, NOW);
    assert.ok(both.score > one.score);
    assert.equal(one.reasons[0], "Tests on mobile, 1 of the study's 2 devices");
  });

  it("speaking the study's main language scores higher than another of its languages", () => {
    const wanted = study({ languages: ['de', 'en'] });
    const german = scoreCandidate(candidate('a', { languages: ['de-AT'] }), wanted, NOW);
    const english = scoreCandidate(candidate('b', { languages: ['en'] }), wanted, NOW);
    assert.ok(german.score > english.score);
    assert.equal(english.reasons[1], "Speaks one of the study's languages, not its main one (de)");
  });

  it('experience, rating and recent activity each raise the score', () => {
    const base = scoreCandidate(candidate('a'), study(), NOW).score;
    const experienced = scoreCandidate(candidate('b', { completedSessions: 5 }), study(), NOW);
    const rated = scoreCandidate(candidate('c', { meanRating: 5 }), study(), NOW);
    const recent = scoreCandidate(candidate('d', { lastActiveAt: daysAgo(3) }), study(), NOW);
    const idle = scoreCandidate(candidate('e', { lastActiveAt: daysAgo(400) }), study(), NOW);
    assert.ok(experienced.score > base && rated.score > base && recent.score > base);
    assert.ok(idle.score < base, 'a year idle ranks below a new tester');
    assert.equal(experienced.reasons[2], 'Completed 5 sessions');
    assert.equal(rated.reasons[3], 'Average session rating 5.0 out of 5');
    assert.equal(recent.reasons[4], 'Active in the last 30 days');
    assert.equal(idle.reasons[4], 'Last active 400 days ago');
  });

  it('a study that names access needs looks for them, also through assistive technology', () => {
    const texts = ['Checkout for screen reader users', 'Pay using keyboard navigation only'];
    assert.deepEqual(soughtNeeds(texts), ['blind', 'keyboard_only']);
    assert.deepEqual(soughtNeeds(['A plain checkout study']), []);
    const wanted = study({ soughtNeeds: ['blind', 'keyboard_only'] });
    const reader = scoreCandidate(candidate('a', { assistiveTechnologies: ['screen_reader'] }), wanted, NOW);
    const none = scoreCandidate(candidate('b'), wanted, NOW);
    assert.ok(reader.score > none.score);
    assert.equal(reader.reasons[2], 'Lives with blindness, which the study looks for');
    assert.equal(
      none.reasons[2],
      'Has none of the access needs the study looks for (blindness and keyboard-only use)',
    );
  });

  it('ranks best first, ties by tester id, and returns no more than asked', () => {
    const pool = [
      candidate('c'),
      candidate('a'),
      candidate('b', { completedSessions: 3, meanRating: 4.5, lastActiveAt: daysAgo(1) }),
    ];
    assert.deepEqual(
      rankCandidates(pool, study(), 3, NOW).map((r) => r.testerId),
      ['b', 'a', 'c'],
    );
    assert.equal(rankCandidates(pool, study(), 2, NOW).length, 2);
    assert.deepEqual(rankCandidates(pool, study(), 0, NOW), []);
  });

  it('an A/B study keeps its devices balanced among close candidates even when one device scores a little higher', () => {
    const wanted = study({ devices: ['desktop', 'mobile'], abTestEnabled: true });
    const strong = { completedSessions: 5, meanRating: 5, lastActiveAt: daysAgo(1) };
    const pool = [
      ...['d1', 'd2', 'd3', 'd4'].map((id) => candidate(id, { devices: ['desktop'], ...strong })),
      ...['m1', 'm2', 'm3', 'm4'].map((id) =>
        candidate(id, { devices: ['mobile'], ...strong, meanRating: 4.6 }),
      ),
    ];
    const picked = rankCandidates(pool, wanted, 4, NOW);
    assert.equal(picked.filter((p) => p.testerId.startsWith('m')).length, 2);
    assert.match(
      picked.at(-1)!.reasons.at(-1)!,
      /^Keeps the A\/B variants balanced: a (desktop|mobile) tester$/,
    );
    const plain = rankCandidates(pool, { ...wanted, abTestEnabled: false }, 4, NOW);
    assert.deepEqual(
      plain.map((p) => p.testerId),
      ['d1', 'd2', 'd3', 'd4'],
      'without an A/B test the best scores win',
    );
  });
});
