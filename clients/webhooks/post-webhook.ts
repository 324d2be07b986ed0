import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { BlockedUrlError, checkHost, portOf, type UrlPolicy } from '../../lib/url-guard.ts';

/** What one POST to an organization's endpoint came to: the receiver's status, or why there was none. */
export type WebhookPostResult =
  | { readonly responseCode: number; readonly error: null }
  | { readonly responseCode: null; readonly error: string };

export interface WebhookPost {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly policy: UrlPolicy;
  readonly timeoutMs: number;
}

/** Enough of a receiver's answer to read its status; the rest is not ours to keep. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one signed event. The host passes the audits' URL guard and the connection goes to the
 * address the guard resolved, never to the name again (a second lookup could answer a private
 * address: DNS rebinding). Redirects are not followed (a 3xx is the receiver's answer). Nothing
 * here throws for the receiver's sake: a refusal, a timeout or a blocked address is a result.
 */
export async function postWebhook(post: WebhookPost): Promise<WebhookPostResult> {
  let url: URL;
  try {
    url = new URL(post.url);
  } catch {
    return { responseCode: null, error: 'The URL is not valid' };
  }
  // The attempt's time runs from here: a slow name lookup is part of it.
  const deadline = Date.now() + post.timeoutMs;
  const late = (): WebhookPostResult => ({
    responseCode: null,
    error: `No answer within ${post.timeoutMs / 1000} s`,
  });
  let address: string;
  try {
    const checked = await Promise.race([
      checkHost(url.hostname, portOf(url), post.policy),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), post.timeoutMs).unref()),
    ]);
    if (!checked) return late();
    address = checked.address;
  } catch (error) {
    if (error instanceof BlockedUrlError)
      return { responseCode: null, error: error.message.replace(/^url: /, '') };
    throw error;
  }
  const family = isIP(address) === 6 ? 6 : 4;
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, {
      method: 'POST',
      headers: { ...post.headers, 'Content-Length': String(Buffer.byteLength(post.body)) },
      lookup: pinned,
      // A connection of its own: a pooled socket would go to whatever address an earlier attempt checked.
      agent: false,
    });
    const timer = setTimeout(
      () => {
        req.destroy();
        resolve(late());
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on('response', (response: IncomingMessage) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) response.destroy();
      });
      const settle = () => {
        clearTimeout(timer);
        const code = response.statusCode ?? 0;
        resolve(
          code >= 100 && code <= 599
            ? { responseCode: code, error: null }
            : { responseCode: null, error: 'The answer carried no valid status' },
        );
      };
      response.on('end', settle);
      response.on('close', settle);
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      resolve({ responseCode: null, error: error.message || 'The connection failed' });
    });
    req.end(post.body);
  });
}
