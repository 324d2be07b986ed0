// @ts-check
// The API calls the extension makes, all with the session's test token (spec, "Test tokens"): a
// batch to one of the three signal endpoints, and a status change. Every answer is sorted into
// what the caller does next: go on, try the same request again later, or stop and tell the tester.

/** @typedef {{ apiBase: string, sessionId: string, testToken: string }} Settings */
/** @typedef {'events' | 'snapshots' | 'voice'} SignalKind */
/**
 * @typedef {{ outcome: 'ok', data: unknown }
 *   | { outcome: 'retry', reason: string, retryAfterMs?: number }
 *   | { outcome: 'stop', status: number, reason: string, serverMessage: string }} Answer
 */

/** A request that has not answered by then is abandoned and tried again (the server dedupes). */
const REQUEST_TIMEOUT_MS = 15_000;

// Why each refusal stops sending: none of them gets better by sending the same request again.
const STOP_REASONS = /** @type {Record<number, string>} */ ({
  401: 'The test token was refused: it expired or was replaced. Ask for a new one, enter it and press Start.',
  403: 'The test token does not belong to this session.',
  404: 'The API knows no such session.',
  409: 'The session is not recording any more.',
});

/**
 * `POST {apiBase}/api/sessions/{id}/{kind}` with `{batch}`.
 * @param {Settings} settings @param {SignalKind} kind @param {unknown[]} batch
 */
export const postBatch = (settings, kind, batch) => call(settings, 'POST', kind, { batch });

/**
 * `PATCH {apiBase}/api/sessions/{id}` with `{status}`.
 * @param {Settings} settings @param {'active' | 'paused' | 'completed'} status
 */
export const patchStatus = (settings, status) => call(settings, 'PATCH', '', { status });

/**
 * `PATCH {apiBase}/api/sessions/{id}` with `{task}`: the tester began, did or gave up on a task.
 * @param {Settings} settings @param {TaskProgress} task
 */
export const patchTask = (settings, task) => call(settings, 'PATCH', '', { task });

/**
 * @typedef {{ order: number, state: 'started' | 'completed' | 'abandoned', at: string, ease?: number, reason?: string }} TaskProgress
 */

/**
 * @param {Settings} settings @param {'POST' | 'PATCH'} method @param {string} tail @param {unknown} body
 * @returns {Promise<Answer>}
 */
async function call(settings, method, tail, body) {
  const url = `${settings.apiBase.replace(/\/+$/, '')}/api/sessions/${encodeURIComponent(settings.sessionId)}${tail ? `/${tail}` : ''}`;
  /** @type {Response} */
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Test-Token': settings.testToken },
      body: JSON.stringify(body),
      credentials: 'omit', // the test token is the only credential; never the tester's cookies
      cache: 'no-store',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    return { outcome: 'retry', reason: `The API did not answer (${errorText(error)}).` };
  }
  /** @type {{ data?: unknown, error?: unknown } | null} */
  let envelope = null;
  try {
    envelope = /** @type {{ data?: unknown, error?: unknown } | null} */ (await readJson(response));
  } catch {
    // Not the API's envelope (a proxy's error page, a cut connection): judged by the status alone.
  }
  if (response.ok && envelope && typeof envelope === 'object' && 'data' in envelope)
    return { outcome: 'ok', data: envelope.data };
  const serverMessage = typeof envelope?.error === 'string' ? envelope.error : response.statusText;
  if (response.ok || response.status === 408 || response.status === 429 || response.status >= 500) {
    const retryAfterMs = retryAfter(response.headers.get('Retry-After'));
    return {
      outcome: 'retry',
      reason: `The API answered ${response.status}${serverMessage ? ` (${serverMessage})` : ''}.`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  const why = STOP_REASONS[response.status] ?? 'The API refused the request.';
  return {
    outcome: 'stop',
    status: response.status,
    serverMessage,
    reason: `${why} (HTTP ${response.status}: ${serverMessage})`,
  };
}

/** @param {Response} response @returns {Promise<unknown>} */
const readJson = (response) => response.json();

/** @param {string | null} header seconds, as the API's 429 sends it */
function retryAfter(header) {
  const seconds = Number(header);
  return header && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** @param {unknown} error */
const errorText = (error) => (error instanceof Error ? error.message : String(error));

/** The `status` of an answer's data, when it has one. @param {unknown} data */
export function statusIn(data) {
  const status =
    data && typeof data === 'object' ? /** @type {{ status?: unknown }} */ (data).status : undefined;
  return typeof status === 'string' ? status : undefined;
}

/** The `accepted` and `rejected` counts of a batch's answer. @param {unknown} data */
export function countsIn(data) {
  const { accepted, rejected } = /** @type {{ accepted?: unknown, rejected?: unknown }} */ (
    data && typeof data === 'object' ? data : {}
  );
  return {
    accepted: typeof accepted === 'number' ? accepted : 0,
    rejected: typeof rejected === 'number' ? rejected : 0,
  };
}

/**
 * A task as the API answers it (the snapshots probe and `PATCH /api/sessions/:id`); never its
 * success criteria, which are for the business.
 * @typedef {object} SessionTask
 * @property {number} order
 * @property {string} title
 * @property {string} description
 * @property {{ state: 'in_progress' | 'completed' | 'abandoned' | 'unfinished', startedAt: string, endedAt: string | null } | null} attempt
 */

/** The `tasks` of an answer's data, when it has them (checked item by item). @param {unknown} data */
export function tasksIn(data) {
  const tasks =
    data && typeof data === 'object' ? /** @type {{ tasks?: unknown }} */ (data).tasks : undefined;
  if (!Array.isArray(tasks)) return undefined;
  /** @type {SessionTask[]} */
  const checked = [];
  for (const task of /** @type {unknown[]} */ (tasks)) {
    const { order, title, description, attempt } = /** @type {Record<string, unknown>} */ (task ?? {});
    if (typeof order !== 'number' || typeof title !== 'string' || typeof description !== 'string') continue;
    const tried = /** @type {Record<string, unknown> | null} */ (
      attempt && typeof attempt === 'object' ? attempt : null
    );
    checked.push({
      order,
      title,
      description,
      attempt:
        tried && typeof tried.state === 'string' && typeof tried.startedAt === 'string'
          ? {
              state: /** @type {NonNullable<SessionTask['attempt']>['state']} */ (tried.state),
              startedAt: tried.startedAt,
              endedAt: typeof tried.endedAt === 'string' ? tried.endedAt : null,
            }
          : null,
    });
  }
  return checked;
}

/** The `prototypeUrl` of the probe's answer, when it is a web address. @param {unknown} data */
export function prototypeUrlIn(data) {
  const url =
    data && typeof data === 'object'
      ? /** @type {{ prototypeUrl?: unknown }} */ (data).prototypeUrl
      : undefined;
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : undefined;
}
