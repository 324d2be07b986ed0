import assert from 'node:assert/strict';
import { createAgents, LOCAL_ANALYST, type Agents } from '../../activities/ai/agents.ts';
import { configuredProviders } from '../../clients/ai/configured.ts';
import type { ReportSummary, TesterProfileSummary } from '../../lib/analysis/aggregate.ts';
import type { EndedAttempt } from '../../lib/analysis/task-results.ts';
import type { ConfirmedNote, SessionReportContent } from '../../lib/analysis/session-report.ts';
import type { FacialSignal } from '../../lib/analysis/signals.ts';
import { WCAG_CATALOG } from '../../lib/analysis/wcag-catalog.ts';
import { TONE_PROFILES } from '../../lib/domain.ts';
import { testConfig } from '../support/config.ts';
import { fakeModel } from './fake-model.ts';
import { startLocalProvider, type LocalProvider } from './provider-servers.ts';
import { attempt, event, session, speech, t } from './signal-builders.ts';

const TONES = TONE_PROFILES;

const notes: ConfirmedNote[] = [
  {
    noteId: 'note-a',
    content: 'A control did not respond as expected: 4 clicks on `#pay` within 1.2 s.',
    annotation: 'The button looked disabled',
    severity: 'high',
    wcagCriterion: '4.1.2',
    wcagLevel: 'A',
    at: t(5),
    target: '#pay',
  },
  {
    noteId: 'note-b',
    content: 'An error interrupted the task: an error was raised at `#card`.',
    annotation: null,
    severity: 'critical',
    wcagCriterion: '3.3.1',
    wcagLevel: 'A',
    at: t(60),
    target: '#card',
  },
  {
    noteId: 'note-c',
    content: 'Attention dropped: attention below 0.3 for 3 consecutive frames.',
    annotation: null,
    severity: 'low',
    wcagCriterion: '2.2.1',
    wcagLevel: 'A',
    at: t(90),
    target: null,
  },
];
const frames: FacialSignal[] = [
  { at: t(1), faceDetected: true, confidences: { angry: 0.5, happy: 0.5 }, attention: 0.9 },
  { at: t(2), faceDetected: true, confidences: { surprise: 0.4, neutral: 0.6 }, attention: 0.9 },
];

/** Everything in a report that no tone and no provider may change. */
function factsOf(report: SessionReportContent) {
  return {
    findings: report.findings.map((f) => ({
      findingId: f.findingId,
      severity: f.severity,
      wcag: f.wcag,
      timestamp: f.timestamp,
      affectedFlow: f.affectedFlow,
    })),
    overallScore: report.overallScore,
    emotionalProfile: report.emotionalProfile,
    recommendationCriteria: report.recommendations.map((r) => /\d\.\d+\.\d+/.exec(r)?.[0]),
  };
}

describe('agents on the analysis core', () => {
  let openai: LocalProvider;
  let local: Agents;
  let remote: Agents;

  before(async () => {
    openai = await startLocalProvider('openai', fakeModel);
    local = createAgents({ providers: [] });
    remote = createAgents({
      providers: configuredProviders(testConfig({ AI_PROVIDER_ORDER: 'openai', ...openai.env() }).ai),
    });
  });
  after(() => openai.stop());
  beforeEach(() => {
    openai.mode = 'ok';
    openai.requests.length = 0;
  });

  describe('Agent 3: tone profiles change wording and framing, never facts', () => {
    for (const [label, agents] of [
      ['the local analyst', () => local],
      ['a provider', () => remote],
    ] as const) {
      it(`same findings ids, severities, criteria, times, scores and recommendations in all four tones (${label})`, async () => {
        const reports = await Promise.all(
          TONES.map((tone) => agents().agent3Report({ notes, frames, tone, format: 'structured' })),
        );
        const [first, ...others] = reports.map((r) => factsOf(r.result));
        for (const other of others) assert.deepEqual(other, first);
        assert.deepEqual(
          first!.findings.map((f) => [f.findingId, f.severity, f.wcag?.criterion]),
          [
            ['note-a', 'high', '4.1.2'],
            ['note-b', 'critical', '3.3.1'],
            ['note-c', 'low', '2.2.1'],
          ],
        );
        assert.equal(first!.overallScore, 100 - 15 - 25 - 3);
        assert.deepEqual(first!.recommendationCriteria, ['3.3.1', '4.1.2', '2.2.1']);
        // The wording does change with the tone.
        const plain = reports.map((r) => r.result.findings[0]!.plainEnglish);
        assert.equal(new Set(plain).size, TONES.length, plain.join(' | '));
      });
    }

    it('the provider is told the tone and its attempts to change facts are ignored', async () => {
      const answer = await remote.agent3Report({ notes, frames, tone: 'restorative', format: 'structured' });
      assert.deepEqual([answer.provider, answer.usedFallback], ['openai', false]);
      assert.match(openai.requests[0]!.system, /Restorative: trauma-informed language/);
      const localReport = await local.agent3Report({
        notes,
        frames,
        tone: 'restorative',
        format: 'structured',
      });
      assert.deepEqual(factsOf(answer.result), factsOf(localReport.result));
      assert.equal(answer.result.findings[0]!.plainEnglish, '[restorative] openai plain words');
      assert.ok(
        answer.result.recommendations.every((r) => r.startsWith('[restorative] openai suggests a fix')),
      );
      assert.deepEqual(answer.result.findings[0]!.wcag, {
        criterion: '4.1.2',
        level: 'A',
        name: 'Name, Role, Value',
      });
    });

    it('narrative format adds the report as prose; structured does not', async () => {
      const narrative = await local.agent3Report({ notes, frames, tone: 'supportive', format: 'narrative' });
      assert.match(narrative.result.narrative!, /^Thank you for working through the session/);
      const structured = await local.agent3Report({
        notes,
        frames,
        tone: 'supportive',
        format: 'structured',
      });
      assert.equal(structured.result.narrative, undefined);
      const told = await remote.agent3Report({ notes, frames, tone: 'standard', format: 'narrative' });
      assert.equal(told.result.narrative, '[standard] openai tells the story');
    });
  });

  describe('Agent 2: WCAG-mapped findings and cross-task patterns', () => {
    // The same kind of barrier (an error) on two pages, and rage clicks on the first.
    const events = [
      event('navigation', 0, '/checkout'),
      ...[5, 5.4, 5.8].map((s) => event('click', s, '#pay')),
      event('error', 20, '#card'),
      event('navigation', 40, '/address'),
      event('error', 50, '#zip'),
    ];
    const signals = { events, facial: [], voice: [] };

    it('maps each finding to a criterion of the catalog, with severity and a pattern across pages', async () => {
      const { result, provider } = await local.agent2Findings({ signals });
      assert.equal(provider, LOCAL_ANALYST);
      assert.deepEqual(
        result.findings.map((f) => [f.findingId, f.kind, f.wcag.criterion, f.severity, f.patternId]),
        [
          ['finding-1', 'rage_clicks', '4.1.2', 'medium', null],
          ['finding-2', 'error', '3.3.1', 'high', 'pattern-3.3.1'],
          ['finding-3', 'error', '3.3.1', 'high', 'pattern-3.3.1'],
        ],
      );
      for (const finding of result.findings) {
        const { name, level } = WCAG_CATALOG.get(finding.wcag.criterion)!;
        assert.deepEqual(finding.wcag, { criterion: finding.wcag.criterion, name, level });
      }
      assert.deepEqual(
        result.patterns.map((p) => [p.patternId, p.findingIds, p.placeKind, p.places]),
        [['pattern-3.3.1', ['finding-2', 'finding-3'], 'page', ['/checkout', '/address']]],
      );
    });

    it('per task: each finding names its task, patterns are across tasks, and what the attempts say is a finding or raises one', async () => {
      const tasks = [
        // Task 1, "Find": the rage clicks happen in it; the tester gave up and rated it 2.
        attempt(1, 1, 30, {
          title: 'Find',
          outcome: 'abandoned',
          ease: 2,
          reason: '  The search\n finds nothing ',
        }),
        // Task 2, "Pay": both errors; done, in 40 s against a study median of 15 s.
        attempt(2, 30, 70, { title: 'Pay', studyMedianMs: 15_000, ease: 6 }),
        // Task 3, "Leave": nothing detected in it, but given up.
        attempt(3, 70, 90, { title: 'Leave', outcome: 'abandoned', ease: null, reason: 'x'.repeat(300) }),
      ];
      const perTask = [
        ...events.slice(0, 4),
        event('error', 35, '#card'),
        event('navigation', 40, '/address'),
        event('error', 50, '#zip'),
      ];
      const { result } = await local.agent2Findings({
        signals: { events: perTask, facial: [], voice: [], tasks },
      });
      assert.deepEqual(
        result.findings.map((f) => [f.kind, f.task?.title ?? null, f.severity, f.corroboratedBy]),
        [
          // Raised once by the give-up and once by the low ease of its task.
          ['rage_clicks', 'Find', 'critical', ['task_abandoned', 'low_ease']],
          ['error', 'Pay', 'critical', ['slow_task']],
          ['error', 'Pay', 'critical', ['slow_task']],
          // A give-up nothing detected explains is a finding of its own, in its task.
          ['task_abandoned', 'Leave', 'high', []],
        ],
      );
      const giveUp = result.findings[3]!;
      // A give-up quotes the tester's reason on one line, cut at 200 characters.
      assert.match(
        giveUp.content,
        new RegExp(
          `^The tester gave up on the task: the tester gave up on task 3, "Leave", after 20 s, saying "${'x'.repeat(199)}…"\\.`,
        ),
      );
      assert.match(
        result.findings[0]!.content,
        /gave up on task 1, "Find", after 29 s, saying "The search finds nothing"/,
      );
      assert.equal(giveUp.wcag.criterion, '3.3.2');
      assert.match(
        result.findings[1]!.content,
        /task 2, "Pay" took 40 s, 2\.7 times the study's median of 15 s/,
      );
      // The two errors are in one task: a pattern by recurrence no longer, by place neither.
      assert.deepEqual(result.patterns, []);

      // The same criterion in two tasks is a pattern across them.
      const twice = [event('error', 10, '#search'), event('error', 50, '#zip')];
      const across = await local.agent2Findings({ signals: { events: twice, facial: [], voice: [], tasks } });
      assert.deepEqual(
        across.result.patterns.map((p) => [p.placeKind, p.places, p.findingIds]),
        [['task', ['Task 1: Find', 'Task 2: Pay'], ['finding-1', 'finding-2']]],
      );
      assert.match(
        across.result.patterns[0]!.description,
        /came up 2 times in 2 tasks \(Task 1: Find, Task 2: Pay\)\.$/,
      );

      // Places are tasks told apart by order (two tasks may share a title); a finding between
      // tasks counts as an occurrence but is in no task.
      const sameTitles = [
        attempt(1, 1, 30, { title: 'Pay', ease: 6 }),
        attempt(2, 40, 70, { title: 'Pay', ease: 6 }),
      ];
      const twoPays = await local.agent2Findings({
        signals: { events: twice, facial: [], voice: [], tasks: sameTitles },
      });
      assert.deepEqual(
        twoPays.result.patterns.map((p) => [p.places, p.findingIds]),
        [
          [
            ['Task 1: Pay', 'Task 2: Pay'],
            ['finding-1', 'finding-2'],
          ],
        ],
      );
      const between = [event('error', 10, '#search'), event('error', 35, '#zip')];
      const oneTask = await local.agent2Findings({
        signals: { events: between, facial: [], voice: [], tasks: sameTitles },
      });
      assert.deepEqual(
        oneTask.result.findings.map((f) => f.task?.order ?? null),
        [1, null],
      );
      assert.deepEqual(oneTask.result.patterns, []);
      // Three times, all between tasks: a pattern by recurrence, in no task.
      const outside = [event('error', 32, '#a'), event('error', 34, '#b'), event('error', 36, '#c')];
      const betweenOnly = await local.agent2Findings({
        signals: { events: outside, facial: [], voice: [], tasks: sameTitles },
      });
      assert.deepEqual(
        betweenOnly.result.patterns.map((p) => [p.places, p.occurrences]),
        [[[], 3]],
      );
      assert.match(betweenOnly.result.patterns[0]!.description, /came up 3 times between tasks\.$/);
      // Once in a task and twice between tasks.
      const mixed = [event('error', 20, '#a'), ...outside.slice(1)];
      const { result: mixedResult } = await local.agent2Findings({
        signals: { events: mixed, facial: [], voice: [], tasks: sameTitles },
      });
      assert.match(
        mixedResult.patterns[0]!.description,
        /came up 3 times in 1 task \(Task 1: Pay\), 2 of them between tasks\.$/,
      );
    });

    it('a provider words the findings; criteria, severities and times stay the analysis core`s', async () => {
      const worded = await remote.agent2Findings({ signals });
      const plain = await local.agent2Findings({ signals });
      const facts = (r: typeof plain.result) =>
        r.findings.map((f) => [f.findingId, f.kind, f.timestamp, f.target, f.severity, f.wcag, f.patternId]);
      assert.deepEqual(facts(worded.result), facts(plain.result));
      assert.equal(worded.result.findings[1]!.title, 'openai title');
      assert.match(
        worded.result.findings[1]!.content,
        /^openai title: openai describes: .* Likely WCAG 3\.3\.1 Error Identification \(Level A\); severity high\.$/,
      );
    });

    it('an answer naming a finding that does not exist is a schema failure', async () => {
      openai.mode = 'unknownIds';
      await assert.rejects(remote.agent2Findings({ signals }), /unknown findingId/);
    });
  });

  describe('Agent 4: across testers', () => {
    // Each finding happened in a study task: #pay in task 1, #menu in task 2.
    const finding = (id: string, criterion: string, flow: string, severity: 'high' | 'medium' = 'high') => ({
      findingId: id,
      severity,
      title: `Barrier at ${flow}`,
      affectedFlow: flow,
      taskOrder: flow === '#pay' ? 1 : 2,
      wcag: { criterion, level: 'A' as const },
    });
    const reports: ReportSummary[] = [
      {
        sessionId: 's1',
        testerId: 'u1',
        variant: 'A',
        overallScore: 70,
        findings: [finding('n1', '4.1.2', '#pay')],
      },
      {
        sessionId: 's2',
        testerId: 'u2',
        variant: 'B',
        overallScore: 60,
        findings: [finding('n2', '4.1.2', '#pay'), finding('n3', '2.1.2', '#menu', 'medium')],
      },
      { sessionId: 's3', testerId: 'u3', variant: 'B', overallScore: 90, findings: [] },
    ];
    const profiles: TesterProfileSummary[] = [
      { testerId: 'u1', devices: ['desktop'], accessNeeds: [], country: 'GB', birthYear: 1990 },
      {
        testerId: 'u2',
        devices: ['desktop'],
        accessNeeds: ['keyboard_only'],
        country: 'DE',
        birthYear: 1960,
      },
      { testerId: 'u3', devices: ['mobile'], accessNeeds: [], country: 'GB', birthYear: 2000 },
    ];
    const input = { reports, profiles, includeVariantComparison: true, referenceDate: t(0) };

    it('scores the study, clusters barriers across sessions, and separates widespread from profile-specific', async () => {
      const { result } = await local.agent4Aggregate(input);
      assert.equal(result.sessionCount, 3);
      assert.equal(result.studyScore, 73.3);
      assert.deepEqual(
        result.topFindings.map((f) => [f.wcag?.criterion, f.severity, f.affectedSessionCount]),
        [
          ['4.1.2', 'high', 2],
          ['2.1.2', 'medium', 1],
        ],
      );
      const [pay, menu] = result.topFindings;
      assert.deepEqual(result.widespreadBarriers, [
        { findingId: pay!.findingId, affectedSessionCount: 2, share: 0.667 },
      ]);
      assert.deepEqual(result.profileSpecificBarriers, [
        {
          findingId: menu!.findingId,
          dimension: 'accessNeeds',
          value: 'keyboard_only',
          affectedSessionCount: 1,
          groupSessionCount: 1,
        },
      ]);
      assert.deepEqual(result.variantComparison, {
        A: { avgScore: 70, sessionCount: 1 },
        B: { avgScore: 75, sessionCount: 2 },
      });
      assert.deepEqual(result.stratification.device, {
        desktop: { sessionCount: 2, avgScore: 65, barriers: [pay!.findingId, menu!.findingId] },
        mobile: { sessionCount: 1, avgScore: 90, barriers: [] },
      });
      assert.deepEqual(Object.keys(result.stratification.ageBand).sort(), ['25-34', '35-44', '65+']);
      assert.deepEqual(Object.keys(result.stratification.country), ['DE', 'GB']);
      const without = await local.agent4Aggregate({ ...input, includeVariantComparison: false });
      assert.deepEqual(without.result.variantComparison, {});
    });

    it('reports per task: its figures by kind of tester, and its barriers marked widespread, profile-specific or isolated', async () => {
      // The findings above happened in tasks 1 and 2, which share a title: barriers follow the
      // task's order, never its title.
      const tasks = [
        { order: 1, title: 'Check out', successPage: '/paid' },
        { order: 2, title: 'Check out', successPage: null },
      ];
      const attempt = (testerId: string, order: number, outcome: EndedAttempt['outcome'], seconds: number) =>
        ({
          order,
          testerId,
          variant: null,
          outcome,
          activeMs: seconds * 1000,
          ease: outcome === 'completed' ? 6 : 2,
          device: 'desktop',
          country: 'GB',
          assistiveTechnologies: [],
          successReached: order === 1 ? outcome === 'completed' : null,
        }) satisfies EndedAttempt;
      const attempts = [
        attempt('u1', 1, 'completed', 40),
        attempt('u2', 1, 'abandoned', 90),
        attempt('u3', 1, 'completed', 50),
        attempt('u1', 2, 'completed', 20),
        attempt('u2', 2, 'completed', 80),
        attempt('u3', 2, 'completed', 30),
      ];
      const { result } = await local.agent4Aggregate({ ...input, tasks, attempts });
      const [pay, menu] = result.tasks;
      assert.deepEqual(
        [pay!.order, pay!.title, pay!.overall.testers, pay!.overall.completed, pay!.overall.abandoned],
        [1, 'Check out', 3, 2, 1],
      );
      assert.equal(pay!.overall.completionRate!.value, 2 / 3);
      assert.deepEqual(pay!.successPage, {
        page: '/paid',
        judged: 3,
        reached: 2,
        doneWithoutReaching: 0,
        gaveUpAfterReaching: 0,
      });
      // Three testers in one country: the split by country is withheld (fewer than 5).
      assert.deepEqual(
        pay!.byCountry.map((group) => [group.group, group.testers, group.withheld]),
        [['GB', 3, true]],
      );
      assert.deepEqual(
        pay!.barriers.map((b) => [b.affectedSessionCount, b.scope, b.profile]),
        [[2, 'widespread', null]],
      );
      assert.deepEqual(
        menu!.barriers.map((b) => [b.affectedSessionCount, b.scope, b.profile]),
        [[1, 'profile_specific', { dimension: 'accessNeeds', value: 'keyboard_only' }]],
      );
      assert.match(result.summary, /Task 1, Check out: 2 of 3 completed, 1 gave up\./);
      // Without tasks (a study before sessions had them) there are no sections.
      assert.deepEqual((await local.agent4Aggregate(input)).result.tasks, []);
    });

    it('a provider titles the barriers and recommends; counts and scores stay computed', async () => {
      const worded = await remote.agent4Aggregate(input);
      const plain = await local.agent4Aggregate(input);
      assert.deepEqual(
        worded.result.topFindings.map(({ title: _t, ...fact }) => fact),
        plain.result.topFindings.map(({ title: _t, ...fact }) => fact),
      );
      assert.equal(worded.result.studyScore, plain.result.studyScore);
      assert.ok(worded.result.topFindings.every((f) => f.title === 'openai barrier'));
      assert.deepEqual(worded.result.recommendations, ['openai recommends fixing the top barrier first']);
    });
  });

  describe('Agent 1', () => {
    it('insights are the core`s facts up to snapshotAt, from the chosen signals only', async () => {
      const signals = {
        events: [...[0, 0.4, 0.8].map((s) => event('click', s, '#pay')), event('error', 100, '#card')],
        facial: [
          { at: t(10), faceDetected: true, confidences: { neutral: 1 }, attention: 0.1 },
          { at: t(11), faceDetected: true, confidences: { neutral: 1 }, attention: 0.1 },
        ],
        voice: [],
      };
      const early = await local.agent1Insights({ signals, snapshotAt: t(50) });
      assert.deepEqual(
        early.result.criticalMoments.map((m) => m.type),
        ['rage_clicks', 'attention_drop'],
      );
      assert.deepEqual(early.result.attentionDropTimestamps, [t(10).toISOString()]);
      const eventsOnly = await local.agent1Insights({ signals, includeSignals: ['events'] });
      assert.deepEqual(
        eventsOnly.result.criticalMoments.map((m) => m.type),
        ['rage_clicks', 'error'],
      );
      assert.deepEqual(eventsOnly.result.attentionDropTimestamps, []);
      assert.match(eventsOnly.result.summary, /^2 candidate barrier moments so far/);
    });

    it('criticalMoments keeps the 50 most severe moments of a longer list, in time order', async () => {
      // 55 hesitant voice segments (low), then 5 errors on five elements (high).
      const hesitations = Array.from({ length: 55 }, (_, i) => speech(i * 10, 0, 3));
      const errors = [1000, 1010, 1020, 1030, 1040].map((s, i) => event('error', s, `#field-${i}`));
      const { result } = await local.agent1Insights({
        signals: session({ events: errors, voice: hesitations }),
      });
      assert.deepEqual(
        result.criticalMoments.map((m) => m.type),
        [...Array<string>(45).fill('hesitation'), ...Array<string>(5).fill('error')],
      );
      // The least severe are dropped latest first: the 45 kept hesitations are the earliest.
      assert.deepEqual(
        result.criticalMoments.slice(0, 45).map((m) => m.timestamp),
        hesitations.slice(0, 45).map((segment) => segment.startedAt.toISOString()),
      );
      assert.deepEqual(
        result.criticalMoments.slice(45).map((m) => m.timestamp),
        errors.map((e) => e.at.toISOString()),
      );
    });
  });
});
