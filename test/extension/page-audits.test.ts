import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { BrowserPool } from '../../activities/audits/browser-pool.ts';
import { auditPage } from '../../activities/audits/page-audit.ts';
import { AUDIT_CATEGORIES } from '../../lib/audits.ts';
import { testConfig } from '../support/config.ts';
import { axeViolations } from '../pages/keyboard.ts';
import { EXTENSION_DIR } from './support/browser.ts';
import { answerPrompt, studyRecords } from './support/media.ts';
import { extensionSuite } from './support/suite.ts';

// The extension's pages are people's pages too: the popup (with both device questions showing), the
// task panel (a task, then the questions after it) and the permission tab (asking, and after the
// browser said no). Each is taken as the tester sees it
// in the extension and audited from a plain web server (the audit's browser cannot open
// chrome-extension:// pages), its scripts left out: what is audited is the document they built.

/** The page as it stands, without its scripts. */
const snapshot = (page: Page) =>
  page.evaluate(() => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('script').forEach((script) => script.remove());
    return `<!doctype html>\n${copy.outerHTML}`;
  });

describe('Browser extension: its pages pass the instant audit with grade A and axe-core without a violation', function () {
  this.timeout(180_000);
  const suite = extensionSuite(() => Promise.resolve({}));
  before(async () => {
    await studyRecords(suite.study.jobId, 'facial');
    await studyRecords(suite.study.jobId, 'voice');
    await studyRecords(suite.study.jobId, 'think-aloud');
  });

  const pages = new Map<string, string>();
  let server: Server | undefined;
  let pool: BrowserPool | undefined;
  before(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const html = pages.get(path);
      if (html) return void response.writeHead(200, { 'content-type': 'text/html' }).end(html);
      if (path === '/popup.css')
        return void readFile(join(EXTENSION_DIR, 'popup.css')).then((css) =>
          response.writeHead(200, { 'content-type': 'text/css' }).end(css),
        );
      response.writeHead(404).end();
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  after(async () => {
    await pool?.close();
    server?.close();
  });

  it('the popup asking for both devices, the task panel, and the permission tab asking and refused', async () => {
    const { popup } = await suite.startRecording();
    for (const device of ['camera', 'microphone'])
      await popup
        .getByRole('heading', { name: `This study asks for your ${device}` })
        .waitFor({ timeout: 20_000 });
    pages.set('/popup.html', await snapshot(popup));

    // The task panel: a task to start (with the think-aloud reminder), then the questions after
    // giving up, the ease question left unanswered.
    const panel = await suite.browser.context.newPage();
    await panel.goto(`chrome-extension://${suite.browser.extensionId}/tasks.html`);
    await panel.getByRole('heading', { name: 'Find a product' }).waitFor();
    pages.set('/tasks-ready.html', await snapshot(panel));
    await panel.getByRole('button', { name: 'Start task' }).press('Enter');
    await panel.getByRole('button', { name: "I can't do this" }).press('Enter');
    await panel.getByRole('button', { name: 'Send' }).press('Enter');
    await panel.locator('#ease-error:visible').waitFor();
    pages.set('/tasks-questions.html', await snapshot(panel));

    const tab = await answerPrompt(popup, 'camera', 'allow');
    assert.ok(tab, 'no permission tab opened');
    await tab.getByRole('heading', { name: 'Allow the camera for the usability session' }).waitFor();
    pages.set('/permission-asking.html', await snapshot(tab));
    await tab.getByRole('button', { name: 'Ask the browser' }).press('Enter'); // headless: refused
    await tab
      .getByRole('status')
      .filter({ hasText: /was not allowed/ })
      .waitFor({ timeout: 20_000 });
    pages.set('/permission-refused.html', await snapshot(tab));

    const { port } = server?.address() as AddressInfo;
    const origin = `http://127.0.0.1:${port}`;
    pool = new BrowserPool({
      executablePath: testConfig().audits.chromiumPath,
      size: 1,
      egress: { allowPrivate: false, allowedHosts: [`127.0.0.1:${port}`] },
    });
    const failures: string[] = [];
    for (const path of pages.keys()) {
      await pool.withPage(
        { viewport: { width: 800, height: 700 }, timeoutMs: 60_000 },
        async (page, egress) => {
          const result = await auditPage(page, origin + path, {
            categories: AUDIT_CATEGORIES,
            egress,
            navigationTimeoutMs: 20_000,
            walkDeadline: Date.now() + 30_000,
          });
          const serious = result.issues.filter(
            (issue) => issue.severity === 'critical' || issue.severity === 'serious',
          );
          if (result.grade !== 'A' || serious.length)
            failures.push(
              `${path}: grade ${result.grade}, ${JSON.stringify(result.issues.map((i) => `${i.ruleId} ${i.severity} ${i.element}`))}`,
            );
          const violations = await axeViolations(page);
          if (violations.length) failures.push(`${path}: axe ${violations.join('; ')}`);
        },
      );
    }
    assert.deepEqual(failures, []);
  });
});
