// How the demo talks to the service: the public JSON API (the envelope, a bearer JWT or the
// extension's test token) and, for the review, the web pages as a browser would (cookies, CSRF).

export class DemoRequestFailed extends Error {
  override readonly name = 'DemoRequestFailed';
  constructor(
    readonly status: number,
    what: string,
    message: string,
  ) {
    super(`${what} answered ${status}: ${message}`);
  }
}

/**
 * fetch, waiting out the service's rate limit (429 with Retry-After) as a patient client does:
 * the demo polls while people act, and a person's page requests share their account's budget.
 */
async function politeFetch(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(url, init);
    if (response.status !== 429 || attempt === 5) return response;
    await response.body?.cancel();
    const seconds = Number(response.headers.get('retry-after')) || 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

export interface CallOptions {
  /** The session JWT (`Authorization: Bearer`). */
  readonly token?: string;
  /** The extension's credential (`X-Test-Token`), for the session's own signal routes. */
  readonly testToken?: string;
  readonly body?: unknown;
}

export interface Answer<T> {
  readonly status: number;
  readonly data: T | null;
  readonly error: string | null;
}

export class DemoApi {
  constructor(readonly baseUrl: string) {}

  /** One request; the envelope's data, or DemoRequestFailed naming the route and the service's message. */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const answer = await this.attempt<T>(method, path, options);
    if (answer.status >= 400 || answer.data === null) {
      throw new DemoRequestFailed(
        answer.status,
        `${method} ${path.split('?')[0]}`,
        answer.error ?? 'no data',
      );
    }
    return answer.data;
  }

  /** One request whose refusal is an answer too (a report not ready yet is a 404 or 409). */
  async attempt<T>(method: string, path: string, { token, testToken, body }: CallOptions = {}) {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (testToken) headers['X-Test-Token'] = testToken;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await politeFetch(this.baseUrl + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let envelope: { data?: T; error?: string | null };
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      envelope = { error: `not JSON: ${text.slice(0, 120)}` };
    }
    return {
      status: response.status,
      data: envelope.data ?? null,
      error: envelope.error ?? null,
    } as Answer<T>;
  }
}

export interface PageAnswer {
  readonly status: number;
  readonly html: string;
  readonly location: string | null;
}

/**
 * A browser as far as the pages care: it keeps cookies, sends each form with the CSRF token of
 * the last page it saw, and reports redirects instead of following them.
 */
export class DemoBrowser {
  /** Its cookies by name (the session, the CSRF cookie), to open the same pages in Chromium. */
  readonly cookies = new Map<string, string>();
  private csrf = '';

  constructor(readonly baseUrl: string) {}

  get(path: string): Promise<PageAnswer> {
    return this.send('GET', path);
  }

  post(path: string, fields: Readonly<Record<string, string>>): Promise<PageAnswer> {
    return this.send('POST', path, new URLSearchParams({ _csrf: this.csrf, ...fields }).toString());
  }

  private async send(method: string, path: string, body?: string): Promise<PageAnswer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await politeFetch(this.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        Accept: 'text/html',
        ...(cookie ? { Cookie: cookie } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const html = await response.text();
    this.csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? this.csrf;
    return { status: response.status, html, location: response.headers.get('location') };
  }
}
