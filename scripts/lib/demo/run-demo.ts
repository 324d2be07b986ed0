import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '../../../lib/domain.ts';
import { SEED_PASSWORD } from '../../../db/seed/seed-data.ts';
import { DemoApi, DemoBrowser } from './demo-http.ts';
import { mailsTo, type OutboxMail } from './outbox.ts';
import { syntheticEvents, syntheticFacialFrames, syntheticVoice } from './signals.ts';

export interface DemoSettings {
  /** The service's origin (BASE_URL): where the demo sends requests and what its links open. */
  readonly baseUrl: string;
  /** Where the local email provider writes messages (OUTBOX_DIR): the testers' and businesses' inboxes. */
  readonly outboxDir: string;
  /** The Temporal Web UI, when known, and the namespace, for links to each workflow. */
  readonly temporalUi: { readonly url: string | undefined; readonly namespace: string };
  /** An admin account: only an admin reads the quiz's answers (the demo's tester must pass it). */
  readonly admin: { readonly email: string; readonly password: string };
  /** Where the demo's tester lives and the study recruits. */
  readonly country: string;
  /** Wait at each human step for a person to do it in a browser, instead of doing it. */
  readonly byHand: boolean;
  readonly print: (line: string) => void;
  readonly pollMs?: number;
  /** How long one step may take before the demo gives up. */
  readonly stepTimeoutMs?: number;
  /**
   * A receiver for the business's webhook endpoint (DEMO_WEBHOOK_URL): the demo registers it for
   * every event type and waits for the study's events to be delivered. It must pass the service's
   * URL guard (a public address, or one of AUDIT_ALLOWED_HOSTS).
   */
  readonly webhookUrl?: string;
}

export interface DemoSummary {
  readonly jobId: string;
  readonly sessionId: string;
  readonly tester: string;
  readonly business: string;
  readonly password: string;
  readonly findings: number;
  readonly reportId: string;
  readonly payout: string;
  readonly points: number;
  readonly level: number;
  readonly studyStatus: string;
  readonly studyReport: string;
  /** The per-task results as printed, one line a task. */
  readonly taskResults: readonly string[];
  /** The webhook endpoint's signing secret and the event types delivered to it, when one was registered. */
  readonly webhook?: { readonly secret: string; readonly delivered: readonly string[] };
}

/** The events a study's life sends (audit.completed needs a full audit, which the demo does not run). */
const DEMO_WEBHOOK_EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'audit.completed');

interface TaskFigures {
  readonly testers: number;
  readonly completed: number | null;
  readonly abandoned: number | null;
  readonly completionRate: { value: number; low: number; high: number } | null;
  readonly timeOnTaskSeconds: { value: number } | null;
  readonly meanEase: number | null;
}
interface StudyResults {
  readonly tasks: readonly { order: number; title: string; overall: TaskFigures }[];
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** One task's overall figures in a line: who did it, the interval, the time, the ease. */
function describeTaskResult({ order, title, overall }: StudyResults['tasks'][number]): string {
  const rate = overall.completionRate;
  return [
    `Task ${order} "${title}": ${overall.completed} of ${overall.testers} completed`,
    rate ? ` (${percent(rate.value)}, 95 % interval ${percent(rate.low)} to ${percent(rate.high)})` : '',
    overall.abandoned ? `, ${overall.abandoned} gave up` : '',
    overall.timeOnTaskSeconds ? `, ${overall.timeOnTaskSeconds.value.toFixed(1)} s on task` : '',
    overall.meanEase !== null ? `, ease ${overall.meanEase.toFixed(1)} of 7` : '',
  ].join('');
}

/** Every account the demo makes signs in with the seeded accounts' password. */
const DEMO_PASSWORD = SEED_PASSWORD;

interface Proposal {
  readonly proposalId: string;
  readonly testerId: string;
  readonly matchScore: number;
  readonly matchReasons: readonly string[];
}

/**
 * One study's whole life through the public HTTP API with the local providers, printing each step
 * with the pages and workflows to look at: a tester joins, a business creates and pays for a
 * study, matching proposes, people approve, the tester accepts, the session streams its signals
 * and completes, Agent 2 analyses it, the tester confirms on the review page (its own form post),
 * and the report, the payout, the points and the study report follow.
 */
export async function runDemo(settings: DemoSettings): Promise<DemoSummary> {
  const { baseUrl, print } = settings;
  const api = new DemoApi(baseUrl);
  const pollMs = settings.pollMs ?? 1000;
  const timeoutMs = settings.stepTimeoutMs ?? (settings.byHand ? 30 * 60_000 : 180_000);
  const started = new Date(Date.now() - 1000);
  const run = randomUUID().slice(0, 8);
  let stepNumber = 0;

  const page = (path: string) => `${baseUrl}${path}`;
  const workflow = (id: string) =>
    settings.temporalUi.url
      ? `${settings.temporalUi.url}/namespaces/${encodeURIComponent(settings.temporalUi.namespace)}/workflows/${encodeURIComponent(id)}`
      : `workflow ${id} (Temporal Web UI address not known)`;
  const step = (title: string, lines: readonly string[]) => {
    stepNumber += 1;
    print('');
    print(`${String(stepNumber).padStart(2)}. ${title}`);
    for (const line of lines) print(`    ${line}`);
  };
  const byHand = (instruction: string) => {
    if (settings.byHand) print(`    >>> By hand: ${instruction} (the demo waits)`);
  };

  /** Polls `check` until it answers something, or gives up naming what it waited for. */
  async function waitFor<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what} after ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
  const mail = (to: string, pattern: RegExp, what: string): Promise<OutboxMail> =>
    waitFor(what, async () => (await mailsTo(settings.outboxDir, to, pattern, started)).at(-1));
  const pathOf = (url: string) => {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  };
  const signIn = async (email: string, password: string) =>
    (await api.call<{ sessionToken: string }>('POST', '/api/auth/login', { body: { email, password } }))
      .sessionToken;
  const register = async (body: Record<string, unknown>) =>
    await api.call<{ sessionToken: string; user: { id: string } }>('POST', '/api/auth/register', { body });

  // 1. A tester joins: profile, the qualification quiz (passing makes them active), a payout account.
  const testerEmail = `demo-tester-${run}@demo.example`;
  const joined = await register({
    email: testerEmail,
    password: DEMO_PASSWORD,
    role: 'tester',
    displayName: `Demo tester ${run}`,
  });
  const tester = joined.sessionToken;
  await api.call('PATCH', '/api/testers/me', {
    token: tester,
    body: { country: settings.country, devices: ['desktop'], languages: ['en'], accessNeeds: ['low_vision'] },
  });
  const admin = await signIn(settings.admin.email, settings.admin.password);
  const answers = await api.call<{
    quizId: string;
    questions: { questionId: string; correctOptionId: string }[];
  }>('GET', '/api/admin/quiz', { token: admin });
  const attempt = await api.call<{ passed: boolean; score: number }>(
    'POST',
    '/api/testers/me/quiz/attempts',
    {
      token: tester,
      body: {
        quizId: answers.quizId,
        answers: answers.questions.map((question) => ({
          questionId: question.questionId,
          optionId: question.correctOptionId,
        })),
      },
    },
  );
  if (!attempt.passed) throw new Error(`The demo tester failed the quiz (score ${attempt.score})`);
  const connect = await api.call<{ onboardingUrl: string }>('POST', '/api/billing/connect', {
    token: tester,
    body: { returnUrl: page('/profile') },
  });
  await api.call('GET', pathOf(connect.onboardingUrl));
  step('A tester joins', [
    `${testerEmail} (password ${DEMO_PASSWORD}) registers, fills in the profile (${settings.country}, desktop, English),`,
    `passes the qualification quiz (score ${attempt.score}) and is active; the local provider enables their payouts.`,
    `Profile page:        ${page('/profile')}`,
  ]);

  // 2. A business signs up and creates a study recruiting in the tester's country.
  const businessEmail = `demo-business-${run}@demo.example`;
  const business = (
    await register({
      email: businessEmail,
      password: DEMO_PASSWORD,
      role: 'business',
      organizationName: `Demo Shop ${run}`,
    })
  ).sessionToken;
  const created = await api.call<{ jobId: string; status: string }>('POST', '/api/jobs', {
    token: business,
    body: {
      title: `Demo checkout study ${run}`,
      description: 'Can people who rely on a keyboard or a magnifier pay for their basket?',
      prototypeUrl: 'https://shop.example/checkout',
      prototypeType: 'url',
      tasks: [
        { title: 'Fill the basket', description: 'Add a kettle to the basket', order: 1 },
        {
          title: 'Pay',
          description: 'Pay with the test card',
          successCriteria: 'The order page shows',
          order: 2,
        },
      ],
      targeting: { countries: [settings.country], devices: ['desktop'], languages: ['en'], testerCount: 1 },
      compensation: { currency: 'EUR', amount: 25, type: 'flat' },
      settings: { requireThinkAloud: true, recordFacial: true, recordVoice: true, maxDurationMinutes: 30 },
    },
  });
  const jobId = created.jobId;
  const studyPage = page(`/dashboard/jobs/${jobId}`);
  step('A business creates a study', [
    `${businessEmail} (password ${DEMO_PASSWORD}) creates "Demo checkout study ${run}": one tester in ${settings.country}, 25 EUR; it is ${created.status}.`,
    `Study page:          ${studyPage}`,
    `Study workflow:      ${workflow(`study:${jobId}`)}`,
  ]);

  // The business's own systems follow the study through a webhook endpoint, when the demo has one.
  const endpoint = settings.webhookUrl
    ? await api.call<{ endpointId: string; secret: string }>('POST', '/api/webhook-endpoints', {
        token: business,
        body: { url: settings.webhookUrl, events: WEBHOOK_EVENT_TYPES, description: 'The demo' },
      })
    : undefined;
  if (endpoint) {
    step('The business registers a webhook endpoint', [
      `${settings.webhookUrl} hears every event type, signed with ${endpoint.secret.slice(0, 10)}... (shown once).`,
      `Delivery log (API):  ${page(`/api/webhook-endpoints/${endpoint.endpointId}/deliveries`)}`,
    ]);
  }

  // 3. The business pays by checkout; the provider's signed event makes the study active.
  const checkout = await api.call<{
    checkoutUrl: string;
    checkoutSessionId: string;
    amountTotal: number;
    currency: string;
  }>('POST', '/api/billing/checkout', { token: business, body: { jobId } });
  step('The business pays by checkout', [`Checkout page (local provider): ${checkout.checkoutUrl}`]);
  byHand(`sign in as ${businessEmail}, open the study page and press "Pay by checkout", then "Pay"`);
  if (!settings.byHand) await api.call('GET', `/api/billing/local-checkout/${checkout.checkoutSessionId}`);
  await waitFor('the study to become active', async () => {
    const study = await api.call<{ status: string }>('GET', `/api/jobs/${jobId}`, { token: business });
    return study.status === 'active' ? study : undefined;
  });
  print('    Paid: the webhook route took checkout.session.completed and the study is active.');

  // 4. Matching proposes testers; the business approves the demo's tester (and skips any other).
  const proposals = (status: string) =>
    api.call<Proposal[]>('GET', `/api/outreach/proposals?jobId=${jobId}&status=${status}&limit=100`, {
      token: business,
    });
  step('Matching proposes testers', [`Proposals on the study page: ${studyPage}`]);
  byHand(`approve the proposal of tester ${joined.user.id.slice(0, 8)} on the study page`);
  const isOurs = (item: { readonly testerId: string }) => item.testerId === joined.user.id;
  const ours = await waitFor('a proposal of the demo tester', async () => {
    const pending = await proposals('pending');
    for (const other of pending.filter((proposal) => !isOurs(proposal))) {
      // An earlier demo's tester in the same country: skipped (by hand too: it is not a step of
      // the story), so matching gives the place to this run's tester.
      await api.call('POST', `/api/outreach/proposals/${other.proposalId}/reject`, {
        token: business,
        body: { reason: 'The demo follows its own tester' },
      });
      print(`    Skipped the proposal of another tester (${other.testerId.slice(0, 8)}).`);
    }
    return settings.byHand ? (await proposals('accepted')).find(isOurs) : pending.find(isOurs);
  });
  print(`    Proposed: match score ${ours.matchScore}; ${ours.matchReasons.join('; ')}.`);
  const outreachId = settings.byHand
    ? await waitFor('the drafted offer message', async () => {
        const queue = await api.call<{ outreachId: string; testerId: string }[]>(
          'GET',
          `/api/outreach/queue?jobId=${jobId}&limit=100`,
          { token: business },
        );
        return queue.find(isOurs)?.outreachId;
      })
    : (
        await api.call<{ outreachId: string }>('POST', `/api/outreach/proposals/${ours.proposalId}/approve`, {
          token: business,
        })
      ).outreachId;
  print('    Approved: the AI drafted an offer message, which waits in the outreach queue for a person.');

  // 5. A person reads the drafted message and approves it: only then is the offer sent.
  const queue = await api.call<{ outreachId: string; subject: string | null; body: string }[]>(
    'GET',
    `/api/outreach/queue?jobId=${jobId}&limit=100`,
    { token: business },
  );
  const draft = queue.find((message) => message.outreachId === outreachId);
  step('The offer message is reviewed and approved', [
    `Outreach queue:      ${studyPage}#outreach`,
    ...(draft
      ? [`Subject: ${draft.subject ?? '(chat message)'}`, `Text:    ${draft.body.split('\n')[0]}`]
      : []),
    `Offer workflow:      ${workflow(`offer:${outreachId}`)}`,
  ]);
  byHand('press "Approve and send" under the message');
  if (!settings.byHand) await api.call('POST', `/api/outreach/${outreachId}/approve`, { token: business });
  const offer = await mail(testerEmail, /\/offers\/[0-9a-f-]+\?answer=accept/, 'the offer email');
  const acceptUrl = /(\S+\/offers\/[0-9a-f-]+\?answer=accept\S*)/.exec(offer.text)![1]!;
  print(`    Sent: the tester's offer email is ${offer.file}`);

  // 6. The tester accepts by the email's signed link: the session, its test token, the business told.
  step('The tester accepts the offer', [
    `Accept link (from the email): ${acceptUrl}`,
    `Or, signed in as the tester: ${page('/offers')}`,
  ]);
  byHand('open the accept link and press the button (or press Accept on the offers page)');
  if (!settings.byHand) {
    // The link's page answers a person (HTML), not the envelope: what counts is its status.
    const answer = await fetch(page(pathOf(acceptUrl)), { method: 'POST', headers: { Accept: 'text/html' } });
    if (answer.status !== 200) throw new Error(`Accepting the offer answered ${answer.status}`);
  }
  const matched = await mail(businessEmail, /Session: [0-9a-f-]{36}/, "the business's tester-matched email");
  const sessionId = /Session: ([0-9a-f-]{36})/.exec(matched.text)![1]!;
  const tokenMail = await mail(
    testerEmail,
    /Your test token:\s*\n[0-9a-f]{48}/,
    "the tester's test token email",
  );
  const testToken = /Your test token:\s*\n([0-9a-f]{48})/.exec(tokenMail.text)![1]!;
  print(`    Accepted: session ${sessionId}; the test token is in ${tokenMail.file}`);
  print(`    Session workflow:    ${workflow(`session:${sessionId}`)}`);

  // 7. The tester follows the study's tasks (the extension reports each with the test token) while
  // the session streams what the extension records: events and voice with the test token, facial
  // frames scored by the facial engine with the tester's login.
  const task = (body: Record<string, unknown>) =>
    api.call('PATCH', `/api/sessions/${sessionId}`, { testToken, body: { task: body } });
  await task({ order: 1, state: 'started' });
  await task({ order: 1, state: 'completed', ease: 6 });
  await task({ order: 2, state: 'started' });
  const base = new Date(Date.now() - 3 * 60_000);
  const events = await api.call<{ accepted: number }>('POST', `/api/sessions/${sessionId}/events`, {
    testToken,
    body: { batch: syntheticEvents(base) },
  });
  const voice = await api.call<{ accepted: number }>('POST', `/api/sessions/${sessionId}/voice`, {
    testToken,
    body: { batch: syntheticVoice(base) },
  });
  const facial = await api.call<{ accepted: number }>('POST', '/api/data/facial', {
    token: tester,
    body: { sessionId, batch: syntheticFacialFrames(base) },
  });
  await task({ order: 2, state: 'abandoned', ease: 2, reason: 'The Pay button does nothing' });
  step('The tester follows the tasks; the session streams its signals', [
    'Task 1 "Fill the basket" done (ease 6 of 7); task 2 "Pay" given up: "The Pay button does nothing" (ease 2).',
    `${events.accepted} interaction events and ${voice.accepted} voice segments with the test token, ${facial.accepted} facial frames:`,
    'four clicks on a Pay button that does nothing, said out loud in frustration, then a card-number error.',
  ]);

  // 8. The session completes; Agent 2 analyses it by itself.
  await api.call('PATCH', `/api/sessions/${sessionId}`, { testToken, body: { status: 'completed' } });
  await waitFor('Agent 2 to analyse the session', async () => {
    const session = await api.call<{ status: string }>('GET', `/api/sessions/${sessionId}`, {
      token: business,
    });
    return session.status === 'analyzed' ? session : undefined;
  });
  const reviewPath = `/sessions/${sessionId}/review`;
  const results = await api.call<StudyResults>('GET', `/api/jobs/${jobId}/results`, { token: business });
  const taskResults = results.tasks.map(describeTaskResult);
  step('The session completes and Agent 2 analyses it', [
    'The tester is asked to confirm the findings (the confirmation request email links the review page).',
    `Review page:         ${page(reviewPath)}`,
    `Per-task results (GET /api/jobs/${jobId}/results):`,
    ...taskResults.map((line) => `  ${line}`),
  ]);

  // 9. The tester confirms on the review page, through the page's own form post: the gate.
  byHand(`sign in as ${testerEmail}, decide each finding, rate the session and send`);
  let findings = 0;
  if (settings.byHand) {
    await waitFor('the tester to confirm the session', async () => {
      const session = await api.call<{ status: string }>('GET', `/api/sessions/${sessionId}`, {
        token: business,
      });
      return session.status === 'confirmed' ? session : undefined;
    });
  } else {
    const browser = new DemoBrowser(baseUrl);
    await browser.get('/login');
    const signedIn = await browser.post('/login', {
      email: testerEmail,
      password: DEMO_PASSWORD,
      next: reviewPath,
    });
    if (signedIn.status !== 303) throw new Error(`Signing in on /login answered ${signedIn.status}`);
    const review = await browser.get(reviewPath);
    const notes = [
      ...new Set([...review.html.matchAll(/name="decision-([0-9a-f-]{36})"/g)].map((match) => match[1]!)),
    ];
    findings = notes.length;
    const fields: Record<string, string> = {
      rating: '4',
      comment: 'The Pay button did nothing until I pressed it four times.',
    };
    for (const note of notes) fields[`decision-${note}`] = 'confirmed';
    const sent = await browser.post(reviewPath, fields);
    if (sent.status !== 303) throw new Error(`The review form answered ${sent.status}`);
  }
  step('The tester confirms the findings on the review page', [
    `${findings ? `${findings} findings confirmed, ` : ''}rated 4 of 5: the human-in-the-loop gate opens.`,
    `What was sent:       ${page(`${reviewPath}?sent=1`)}`,
  ]);

  // 10. The business rates the session (the tester's points wait for it).
  await api.call('POST', `/api/sessions/${sessionId}/rating`, {
    token: business,
    body: { rating: 5, comment: 'Clear think-aloud, found the real barrier.' },
  });
  step('The business rates the session', [`5 of 5, on the study page: ${studyPage}`]);

  // 11. What follows by itself: Agent 3's report, the payout, the points, the study's completion and Agent 4.
  const report = await waitFor("Agent 3's session report", async () => {
    const job = await api.attempt<{ status: string; reportId: string | null; reportUrl: string | null }>(
      'POST',
      '/api/reports',
      { token: business, body: { sessionId } },
    );
    return job.data?.status === 'complete' && job.data.reportId ? job.data : undefined;
  });
  const payout = await mail(testerEmail, /Payout of [^\n]* paid/, "the tester's payout email");
  const payoutLine = /Payout of ([^\n]*) paid/.exec(payout.text)![1]!;
  const standing = await waitFor("the tester's points", async () => {
    const me = await api.call<{ points: number; level: number; badges: { name: string }[] }>(
      'GET',
      '/api/testers/me',
      {
        token: tester,
      },
    );
    return me.points > 0 ? me : undefined;
  });
  const study = await waitFor('the study to complete', async () => {
    const read = await api.call<{ status: string }>('GET', `/api/jobs/${jobId}`, { token: business });
    return read.status === 'completed' ? read : undefined;
  });
  const studyReport = await waitFor("Agent 4's study report", async () => {
    const read = await api.attempt<{ status: string }>('GET', `/api/reports/job/${jobId}`, {
      token: business,
    });
    return read.data && read.data.status !== 'queued' ? read.data : undefined;
  });
  const delivered = endpoint
    ? await waitFor('the webhook deliveries', async () => {
        const log = await api.call<{ eventType: string; status: string }[]>(
          'GET',
          `/api/webhook-endpoints/${endpoint.endpointId}/deliveries?limit=100`,
          { token: business },
        );
        const types = new Set(log.filter((row) => row.status === 'delivered').map((row) => row.eventType));
        return DEMO_WEBHOOK_EVENTS.every((type) => types.has(type)) ? [...types] : undefined;
      })
    : undefined;
  step('The report, the payout, the points and the study report follow', [
    `Session report (Agent 3): ${page(`/reports/${report.reportId}`)} (API: ${page(report.reportUrl!)})`,
    `Payout: ${payoutLine} paid (${payout.file})`,
    `Tester: ${standing.points} points, level ${standing.level}, badges: ${standing.badges.map((badge) => badge.name).join(', ') || 'none yet'}`,
    `Study: ${study.status}; study report (Agent 4): ${studyReport.status}, ${page(`/dashboard/jobs/${jobId}/report`)}`,
    `Tester's profile:    ${page('/profile')}`,
    ...(delivered ? [`Webhook endpoint: delivered ${delivered.join(', ')}`] : []),
  ]);

  return {
    jobId,
    sessionId,
    tester: testerEmail,
    business: businessEmail,
    password: DEMO_PASSWORD,
    findings,
    reportId: report.reportId!,
    payout: payoutLine,
    points: standing.points,
    level: standing.level,
    studyStatus: study.status,
    studyReport: studyReport.status,
    taskResults,
    ...(endpoint && delivered ? { webhook: { secret: endpoint.secret, delivered } } : {}),
  };
}
