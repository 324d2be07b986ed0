// Which Temporal server `npm start` uses, decided from the configuration and one reachability check,
// so that the address, the Web UI URL and what is printed always agree.

const DEFAULT_FRONTEND_PORT = 7233;
const DEFAULT_UI_PORT = 8233;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface TemporalSettings {
  /** TEMPORAL_ADDRESS, or its default 127.0.0.1:7233. */
  readonly address: string;
  /** TEMPORAL_UI_URL, or its default. */
  readonly uiUrl: string;
  /** Whether TEMPORAL_UI_URL was set: only then is the Web UI of a server found running known. */
  readonly uiUrlGiven: boolean;
}

export type TemporalPlan =
  /** A server already answers at `address`; nothing is started. */
  | { readonly kind: 'use'; readonly address: string; readonly uiUrl: string | undefined }
  /** Nothing answers at a loopback address: start the dev server there. */
  | { readonly kind: 'start'; readonly ip: string; readonly port: number; readonly uiPort: number };

export function planTemporal(settings: TemporalSettings, answering: boolean): TemporalPlan {
  if (answering) {
    return {
      kind: 'use',
      address: settings.address,
      uiUrl: settings.uiUrlGiven ? settings.uiUrl : undefined,
    };
  }
  const { hostname, port } = new URL(`http://${settings.address}`);
  if (!LOOPBACK.has(hostname)) {
    throw new Error(
      `TEMPORAL_ADDRESS=${settings.address} does not answer, and a dev server can only be started on ` +
        'this machine (127.0.0.1, localhost or [::1])',
    );
  }
  return {
    kind: 'start',
    ip: hostname === 'localhost' ? '127.0.0.1' : hostname.replace(/^\[|\]$/g, ''),
    port: port ? Number(port) : DEFAULT_FRONTEND_PORT,
    uiPort: Number(new URL(settings.uiUrl).port || DEFAULT_UI_PORT),
  };
}
