// The audits `npm run audit` asks the service for, one URL after the other, through the public API
// with an API token: an instant audit (answered within its 10 seconds), or a full one, queued and
// then read until it completes. Each audit's result decides the exit status; its document (in the
// format asked for) is read back from the stored result, so the audit runs once whatever the format.

import { setTimeout } from 'node:timers/promises';
import { instantAuditPath } from '../../../api/audits/audit-view.ts';
import type { Severity } from '../../../lib/audits.ts';
import type { AuditCliOptions } from './options.ts';

/** How often a queued full audit is read, and how long it may take (the spec gives 2 to 5 minutes). */
const POLL_MS = 2_000;
const FULL_AUDIT_LIMIT_MS = 15 * 60_000;
/** A request the service has not answered in this long is given up (an instant audit takes 10 s). */
const REQUEST_LIMIT_MS = 60_000;

export interface AuditOutcome {
  readonly url: string;
  readonly score: number;
  readonly grade: string;
  readonly issueCounts: Record<Severity, number>;
  /** The audit in the format asked for, as the service answered it. */
  readonly document: string;
}

/** An audit that could not run (the service refused it, or it failed). */
export class AuditError extends Error {}

interface Envelope<T> {
  readonly success: boolean;
  readonly data: T;
  readonly error: string | null;
}

export function auditClient(apiUrl: string, token: string) {
  const call = async (method: string, path: string, body?: object): Promise<Response> => {
    const response = await fetch(new URL(path, apiUrl), {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
    }).catch((error: unknown) => {
      throw new AuditError(
        `${apiUrl} did not answer (${error instanceof Error ? error.message : String(error)})`,
      );
    });
    if (!response.ok) {
      const text = await response.text();
      let message = text.slice(0, 300);
      try {
        message = (JSON.parse(text) as Envelope<unknown>).error ?? message;
      } catch {
        // Not the API's envelope (a proxy's page): its text says what happened.
      }
      throw new AuditError(`${method} ${path} answered ${response.status}: ${message}`);
    }
    return response;
  };
  const data = async <T>(method: string, path: string, body?: object) => {
    const text = await (await call(method, path, body)).text();
    try {
      return (JSON.parse(text) as Envelope<T>).data;
    } catch {
      throw new AuditError(
        `${method} ${path} answered something other than the API's JSON: ${text.slice(0, 120)}`,
      );
    }
  };
  /** The audit as `format` asks: the JSON already read, or the document read back from `path`. */
  const documentOf = async (path: string, format: string, json: unknown) =>
    format === 'json' ? JSON.stringify(json) : await (await call('GET', `${path}?format=${format}`)).text();

  /** The request's headers and cookies for the audited origin, when the command line gave any. */
  const credentials = (options: AuditCliOptions) => ({
    ...(Object.keys(options.headers).length ? { headers: options.headers } : {}),
    ...(options.cookies.length ? { cookies: options.cookies } : {}),
  });

  async function instant(url: string, options: AuditCliOptions): Promise<AuditOutcome> {
    const result = await data<{
      auditId: string;
      score: number;
      grade: string;
      issueCounts: Record<Severity, number>;
    }>('POST', '/api/audits/instant', { url, ...credentials(options) });
    return {
      url,
      score: result.score,
      grade: result.grade,
      issueCounts: result.issueCounts,
      document: await documentOf(instantAuditPath(result.auditId), options.format, result),
    };
  }

  async function full(url: string, options: AuditCliOptions): Promise<AuditOutcome> {
    const queued = await data<{ auditJobId: string }>('POST', '/api/audits/full', {
      url,
      crawl: options.crawl,
      ...(options.maxPages ? { maxPages: options.maxPages } : {}),
      ...credentials(options),
    });
    const path = `/api/audits/${queued.auditJobId}`;
    const until = Date.now() + FULL_AUDIT_LIMIT_MS;
    for (;;) {
      const job = await data<{
        status: string;
        error: string | null;
        result: { score: number; grade: string; issueCounts: Record<Severity, number> } | null;
      }>('GET', path);
      if (job.status === 'failed')
        throw new AuditError(`the full audit of ${url} failed: ${job.error ?? 'no reason given'}`);
      if (job.status === 'complete' && job.result) {
        return {
          url,
          score: job.result.score,
          grade: job.result.grade,
          issueCounts: job.result.issueCounts,
          document: await documentOf(path, options.format, job),
        };
      }
      if (Date.now() > until) throw new AuditError(`the full audit of ${url} did not complete in 15 minutes`);
      await setTimeout(POLL_MS);
    }
  }

  return {
    audit: (url: string, options: AuditCliOptions) =>
      options.full ? full(url, options) : instant(url, options),
  };
}
