import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { tabTo } from '../pages/keyboard.ts';
import { waitFor } from '../sessions/fixtures.ts';
import { studyRecords } from './support/media.ts';
import { popupShows } from './support/session.ts';
import { extensionSuite } from './support/suite.ts';

interface TaskAnswer {
  order: number;
  title: string;
  attempt: {
    state: string;
    ease: number | null;
    reason: string | null;
    timeOnTaskSeconds: number | null;
  } | null;
}

// The task panel (extension/tasks.html, in Chrome's side panel): the study's tasks one at a time
// (validStudyBody: 1 "Find a product", 2 "Pay" whose success criteria are for the business only),
// followed with the keyboard alone; every report goes through PATCH /api/sessions/:id with the
// test token (issue 31, point 1).
describe('Browser extension: the task panel', function () {
  this.timeout(120_000);
  const suite = extensionSuite();
  before(() => studyRecords(suite.study.jobId, 'think-aloud'));

  /** The panel as the side panel shows it, opened in a tab (the same page). */
  async function openPanel(): Promise<Page> {
    const panel = await suite.browser.context.newPage();
    await panel.goto(`chrome-extension://${suite.browser.extensionId}/tasks.html`);
    return panel;
  }

  /** The documents open in the extension's side panel, as the browser lists them. */
  const sidePanels = () =>
    suite.browser.worker.evaluate(async () => {
      type Context = { documentUrl: string };
      const { runtime } = (
        globalThis as unknown as {
          chrome: { runtime: { getContexts(filter: object): Promise<Context[]> } };
        }
      ).chrome;
      const contexts = await runtime.getContexts({ contextTypes: ['SIDE_PANEL'] });
      return contexts.map((context) => new URL(context.documentUrl).pathname.slice(1));
    });

  const tasksOf = async (sessionId: string, token: string) => {
    const read = await suite.api.request('GET', `/api/sessions/${sessionId}`, { token });
    assert.equal(read.status, 200, read.text);
    return (read.body.data as { tasks: TaskAnswer[] }).tasks;
  };

  const focusedName = (panel: Page) =>
    panel.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      return active?.id ? `#${active.id}` : (active?.tagName ?? 'none');
    });

  it('shows each task, starts, ends and asks the ease question with the keyboard alone; the API records each attempt', async () => {
    const { session, popup } = await suite.startRecording();
    // Start opened the side panel on the tasks (headless, it is no page Playwright lists).
    assert.deepEqual(await sidePanels(), ['tasks.html']);
    const panel = await openPanel();
    await panel.getByRole('heading', { name: 'Find a product' }).waitFor();
    assert.equal(await panel.textContent('#task-count'), 'Task 1 of 2');
    assert.equal(await panel.textContent('#task-description'), 'Search for a kettle');
    assert.match((await panel.textContent('#think-aloud')) ?? '', /think aloud/);
    assert.equal(await panel.getAttribute('#prototype', 'href'), `${suite.site.url}/shop/one`);
    assert.doesNotMatch(
      (await panel.textContent('body')) ?? '',
      /Order page shown/,
      'success criteria shown',
    );

    // Task 1: started, done, ease 6.
    await tabTo(panel, '#start-task');
    await panel.keyboard.press('Enter');
    await panel.locator('#done-task:focus').waitFor();
    assert.equal(
      await panel.textContent('#announce'),
      'Task 1 started: Find a product. Remember to think aloud.',
    );
    await waitFor(
      async () =>
        (await tasksOf(session.sessionId, session.testerToken))[0]?.attempt?.state === 'in_progress',
    );
    await panel.keyboard.press('Enter'); // Done
    await panel.locator('#questions-title:focus').waitFor();
    assert.equal(await panel.textContent('#questions-title'), 'Task 1 of 2, Find a product: done');
    assert.ok(await panel.locator('#reason-block').isHidden(), 'a done task asks for no reason');
    await tabTo(panel, '#ease-1');
    for (let step = 1; step < 6; step++) await panel.keyboard.press('ArrowDown');
    assert.ok(await panel.isChecked('#ease-6'));
    await tabTo(panel, '#send-answers');
    await panel.keyboard.press('Enter');
    await panel.locator('#task-title:focus', { hasText: 'Pay' }).waitFor();
    assert.equal(await panel.textContent('#announce'), 'Task 1 recorded as done. Task 2 of 2: Pay.');
    let tasks = await tasksOf(session.sessionId, session.testerToken);
    assert.equal(tasks[0]?.attempt?.state, 'completed');
    assert.equal(tasks[0]?.attempt?.ease, 6);
    assert.equal(tasks[1]?.attempt, null);

    // Task 2: given up, with a reason; the ease question must be answered.
    await tabTo(panel, '#start-task');
    await panel.keyboard.press('Enter');
    await panel.locator('#done-task:focus').waitFor();
    await tabTo(panel, '#cannot-task');
    await panel.keyboard.press('Enter');
    await panel.locator('#questions-title:focus').waitFor();
    // Back to the task: nothing is sent, the task goes on, and the moment of that press is dropped.
    await tabTo(panel, '#back-to-task');
    await panel.keyboard.press('Enter');
    await panel.locator('#done-task:focus').waitFor();
    assert.equal(await panel.textContent('#announce'), 'Back to task 2: Pay.');
    const backAt = Date.now();
    assert.equal((await tasksOf(session.sessionId, session.testerToken))[1]?.attempt?.state, 'in_progress');
    await tabTo(panel, '#cannot-task');
    await panel.keyboard.press('Enter');
    await panel.locator('#questions-title:focus').waitFor();
    assert.equal(await panel.textContent('#questions-title'), "Task 2 of 2, Pay: can't be done");
    await tabTo(panel, '#send-answers');
    await panel.keyboard.press('Enter');
    await panel.locator('#ease-1:focus').waitFor();
    assert.equal(
      await panel.textContent('#ease-error'),
      'Choose how difficult or easy the task was, from 1 to 7.',
    );
    assert.equal((await tasksOf(session.sessionId, session.testerToken))[1]?.attempt?.state, 'in_progress');
    await panel.keyboard.press('ArrowDown'); // 2
    await tabTo(panel, '#reason');
    await panel.keyboard.type('The pay button does nothing');
    await tabTo(panel, '#send-answers');
    await panel.keyboard.press('Enter');
    await panel.locator('#finished-title:focus', { hasText: 'Every task is done' }).waitFor();
    assert.equal(
      await panel.textContent('#announce'),
      'Task 2 recorded as could not be done. Every task is done.',
    );
    tasks = await tasksOf(session.sessionId, session.testerToken);
    assert.deepEqual(
      tasks.map((task) => [task.attempt?.state, task.attempt?.ease, task.attempt?.reason]),
      [
        ['completed', 6, null],
        ['abandoned', 2, 'The pay button does nothing'],
      ],
    );
    assert.deepEqual(await panel.locator('#outcomes li').allTextContents(), [
      'Find a product: done',
      'Pay: could not be done',
    ]);

    // Each report went as the tester's PATCH with the test token, from the extension.
    const reports = suite.proxy.requests.filter(
      (request) => request.method === 'PATCH' && request.body.includes('"task"'),
    );
    assert.deepEqual(
      reports.map((request) => {
        const { task } = JSON.parse(request.body) as { task: { order: number; state: string } };
        return `${task.order} ${task.state} ${request.outcome}`;
      }),
      ['1 started 200', '1 completed 200', '2 started 200', '2 abandoned 200'],
    );
    const { task: gaveUp } = JSON.parse(reports[3]!.body) as { task: { at: string } };
    assert.ok(Date.parse(gaveUp.at) >= backAt, 'the give-up is timed at the second press, after Back');
    await popupShows(popup, '#phase', 'recording');
  });

  it('a report whose answer was lost is pressed again: the API holds it, and the panel shows it as the API does', async () => {
    const { session } = await suite.startRecording();
    const panel = await openPanel();
    await panel.getByRole('heading', { name: 'Find a product' }).waitFor();
    // The API stores the start but its answer is lost; Chromium sends a request whose connection
    // closed unanswered once more by itself, and that one is refused.
    suite.proxy.failTaskReports('lose-answer', 'refuse');
    await tabTo(panel, '#start-task');
    await panel.keyboard.press('Enter');
    await panel.locator('#task-message', { hasText: /^Not sent: The API did not answer/ }).waitFor();
    assert.equal(await focusedName(panel), '#start-task', 'focus stays on the button to press again');
    assert.equal((await tasksOf(session.sessionId, session.testerToken))[0]?.attempt?.state, 'in_progress');
    const refused = () => suite.proxy.requests.some((request) => request.outcome === 'refuse');
    if (!refused()) {
      // The connection was new, so Chromium did not send it again: the refusal meets the next press.
      await panel.keyboard.press('Enter');
      await waitFor(
        async () => refused() && (await panel.getAttribute('#start-task', 'aria-disabled')) === 'false',
      );
      assert.match((await panel.textContent('#task-message')) ?? '', /^Not sent/);
    }
    // Refused as already in progress: the API holds the start, so nothing failed.
    await panel.keyboard.press('Enter');
    await panel.locator('#done-task:focus').waitFor();
    assert.equal(await panel.textContent('#task-message'), '');
    assert.ok(
      suite.proxy.requests.some(
        (request) => request.method === 'PATCH' && request.body.includes('"task"') && request.outcome === 409,
      ),
      'the start pressed again was refused as already in progress',
    );
    assert.equal(await panel.textContent('#task-state'), 'In progress. Press Done when you have done it.');
  });

  it('keeps the tasks still while the session is paused, and records a task left open as unfinished at completion', async () => {
    const { session, popup } = await suite.startRecording();
    const panel = await openPanel();
    await panel.getByRole('heading', { name: 'Find a product' }).waitFor();
    await tabTo(panel, '#start-task');
    await panel.keyboard.press('Enter');
    await panel.locator('#done-task:focus').waitFor();

    await popup.click('#pause');
    await popupShows(popup, '#session-status', 'paused');
    await panel.locator('#session-note', { hasText: 'The session is paused' }).waitFor();
    assert.ok(await panel.isDisabled('#done-task'), 'Done is offered while paused');
    assert.ok(await panel.isDisabled('#cannot-task'));

    await popup.click('#resume');
    await popupShows(popup, '#phase', 'recording');
    await panel.locator('#done-task:enabled').waitFor();
    await popup.click('#complete');
    await popupShows(popup, '#phase', 'completed');
    await panel.locator('#finished-title', { hasText: 'The session is complete' }).waitFor();
    assert.deepEqual(await panel.locator('#outcomes li').allTextContents(), [
      'Find a product: not finished',
      'Pay: not started',
    ]);
    const tasks = await tasksOf(session.sessionId, session.testerToken);
    assert.equal(tasks[0]?.attempt?.state, 'unfinished');
    assert.equal(tasks[1]?.attempt, null);
    // Focus left with the hidden Done button: it is on what replaced it.
    assert.equal(await focusedName(panel), '#finished-title');
  });
});
