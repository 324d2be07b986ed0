import assert from 'node:assert/strict';

const rand = () => Math.floor(Math.random() * 250) + 1;

export interface PageResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly html: string;
  /** The Location of a redirect, relative to the site. */
  readonly location: string | null;
}

/**
 * A browser as far as the pages care: a cookie jar, forms posted URL-encoded with the CSRF token of
 * the last page seen, redirects reported rather than followed (the tests check where they go).
 */
export class PageClient {
  readonly cookies = new Map<string, string>();
  private csrf: string | undefined;

  /**
   * `address` is the client address the API sees through X-Forwarded-For (it runs with
   * TRUST_PROXY=1 in these tests), so each test's anonymous requests have a rate-limit budget of their own.
   */
  constructor(
    readonly baseUrl: string,
    private readonly address = `10.${rand()}.${rand()}.${rand()}`,
  ) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.send('GET', path, undefined, headers);
  }

  /** Posts `fields` with the CSRF token of the last page seen (unless `_csrf` is given). */
  async post(path: string, fields: Record<string, string>): Promise<PageResponse> {
    const form = new URLSearchParams({ ...(this.csrf ? { _csrf: this.csrf } : {}), ...fields });
    return this.send('POST', path, form.toString(), { 'Content-Type': 'application/x-www-form-urlencoded' });
  }

  /** Signs in as `claims` by holding their session JWT in the cookie, as after a login. */
  useSession(jwt: string): void {
    this.cookies.set('session', jwt);
  }

  private async send(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(this.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        Accept: 'text/html,application/xhtml+xml',
        'X-Forwarded-For': this.address,
        ...(cookie ? { Cookie: cookie } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (/Max-Age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    if (token) this.csrf = token;
    return {
      status: response.status,
      headers: response.headers,
      html,
      location: response.headers.get('location'),
    };
  }
}

/** The text of the element with `id` (tags removed), to check a message sits where it belongs. */
export function textOfId(html: string, id: string): string {
  const match = new RegExp(`<(\\w+)[^>]*id="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  assert.ok(match, `no element #${id} in the page`);
  return match[2]!.replace(/<[^>]+>/g, '');
}

export function countOf(html: string, pattern: RegExp): number {
  return html.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
}

/** Text as preact writes it into a page (its escapes), to find it there. */
export const escaped = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
