import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startEgressProxy, type EgressProxy } from './egress-proxy.ts';
import { AUDIT_INIT_SCRIPT } from './page-script.ts';
import type { Viewport } from '../../lib/audits.ts';
import type { UrlPolicy } from '../../lib/url-guard.ts';

/** An audit that ran past its deadline; its context has been closed. */
export class AuditTimeoutError extends Error {
  override readonly name = 'AuditTimeoutError';
}

export interface BrowserPoolSettings {
  /** Debian's Chromium; nothing downloads a browser. */
  readonly executablePath: string;
  /** Contexts kept open and ready, each with a blank page. */
  readonly size: number;
  /** What the pages may reach, enforced by each context's egress proxy. */
  readonly egress: UrlPolicy;
}

interface WarmPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The context's own proxy: its refusals tell the audit when the page was sent somewhere internal. */
  readonly egress: EgressProxy;
}

const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 800 };

/**
 * One Chromium per worker and a few warm contexts: creating a context and its first page costs
 * more than a small page's audit, so they are made ahead. Every audit gets a fresh context (no
 * cookies or storage shared between audits), closed once its page work is done. A lone audit
 * refills the pool then too, not while it runs: opening a context (a renderer process, and axe's
 * 650 kB run in its blank page) takes about 0.2 s of CPU in the headless shell the worker drives
 * (0.5 to 0.6 s in the full browser: docs/decisions/audits.md), and beside an audit on two cores
 * it took a small page's audit from about 530 to 980 ms (the full browser, through the API). When
 * other audits run too (full-audit pages beside instant audits) or the audit took the last warm
 * context, the pool refills at once, so the next audit, an instant one with seconds to answer,
 * finds one warm. Each context carries axe and the audit kit as an init script (see
 * AUDIT_INIT_SCRIPT), and reaches the network only through its own egress proxy (see egress-proxy.ts).
 */
export class BrowserPool {
  private browser: Promise<Browser> | undefined;
  private readonly warm: Promise<WarmPage>[] = [];
  /** Contexts of finished audits being closed, and the pool's refill after each. */
  private readonly recycling = new Set<Promise<void>>();
  /** Audits between acquire and recycle. */
  private running = 0;
  private closed = false;

  constructor(private readonly settings: BrowserPoolSettings) {}

  /** Launches the browser and fills the pool, so the first audit finds it warm. */
  async start(): Promise<void> {
    await this.launch();
    this.refill();
    await Promise.allSettled(this.warm);
  }

  async withPage<T>(
    options: { viewport: Viewport; timeoutMs: number },
    work: (page: Page, egress: EgressProxy) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error('The browser pool is closed');
    const { context, page, egress } = await this.acquire();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Closing the context aborts whatever the page is doing, so `work` rejects promptly too.
        void context.close().catch(() => undefined);
        reject(new AuditTimeoutError(`The page audit did not finish within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
    });
    try {
      const size = page.viewportSize();
      if (size?.width !== options.viewport.width || size.height !== options.viewport.height) {
        await page.setViewportSize(options.viewport);
      }
      const running = work(page, egress);
      running.catch(() => undefined);
      return await Promise.race([running, deadline]);
    } finally {
      clearTimeout(timer);
      this.recycle(context, egress);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.recycling]);
    const warm = this.warm.splice(0);
    await Promise.allSettled(
      warm.map(async (entry) => {
        const { context, egress } = await entry;
        await context.close();
        await egress.close();
      }),
    );
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await (await browser).close().catch(() => undefined);
  }

  private launch(): Promise<Browser> {
    this.browser ??= chromium
      .launch({
        executablePath: this.settings.executablePath,
        // Root in containers cannot use Chromium's sandbox; /dev/shm is often too small there.
        // WebRTC may send UDP around a proxy: only proxied (TCP) WebRTC is allowed.
        args: [
          '--no-sandbox',
          '--disable-dev-shm-usage',
          '--disable-gpu',
          '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
        ],
      })
      .then((browser) => {
        browser.on('disconnected', () => {
          this.browser = undefined;
          // Warm contexts died with the browser; acquire() opens fresh ones on the next launch.
          for (const lost of this.warm.splice(0))
            void lost.then(
              ({ egress }) => egress.close(),
              () => undefined,
            );
        });
        return browser;
      });
    this.browser.catch(() => {
      this.browser = undefined;
    });
    return this.browser;
  }

  /** Closes a finished audit's context, then refills the pool. */
  private recycle(context: BrowserContext, egress: EgressProxy): void {
    this.running--;
    const done = (async () => {
      await context.close().catch(() => undefined);
      await egress.close().catch(() => undefined);
      this.refill();
    })();
    this.recycling.add(done);
    void done.finally(() => this.recycling.delete(done));
  }

  /**
   * A warm context, or one opened now when none is left (more audits at once than the pool holds).
   * Counted as running until recycle(), or until it fails to open.
   */
  private async acquire(): Promise<WarmPage> {
    const next = this.warm.shift();
    this.running++;
    if (this.running > 1 || this.warm.length === 0) this.refill();
    try {
      return await this.warmOrNew(next);
    } catch (error) {
      this.running--;
      throw error;
    }
  }

  private async warmOrNew(next: Promise<WarmPage> | undefined): Promise<WarmPage> {
    if (next) {
      try {
        const entry = await next;
        if (entry.context.browser()?.isConnected()) return entry;
        await entry.egress.close();
      } catch {
        // a warm context that failed to open: make one now
      }
    }
    return this.open();
  }

  private refill(): void {
    while (!this.closed && this.warm.length < this.settings.size) {
      const opening = this.open();
      opening.catch(() => undefined);
      this.warm.push(opening);
    }
  }

  private async open(): Promise<WarmPage> {
    // A refill or an acquire racing close() must not launch a browser nobody will close.
    if (this.closed) throw new Error('The browser pool is closed');
    const browser = await this.launch();
    const egress = await startEgressProxy(this.settings.egress);
    try {
      const context = await browser.newContext({
        viewport: DEFAULT_VIEWPORT,
        serviceWorkers: 'block',
        // Chromium sends localhost and 127.0.0.1 around any proxy unless told otherwise: the
        // per-context equivalent of --proxy-bypass-list=<-loopback> sends loopback through it too.
        proxy: { server: egress.server, bypass: '<-loopback>' },
      });
      // Registered now, while the context waits in the pool, not during the audit.
      await context.addInitScript({ content: AUDIT_INIT_SCRIPT });
      const page = await context.newPage();
      return { context, page, egress };
    } catch (error) {
      await egress.close();
      throw error;
    }
  }
}
