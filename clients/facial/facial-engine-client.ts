import { dominantEmotion } from '../../lib/dominant-emotion.ts';
import { analyzeResponse, ANALYZE_PATH, type AnalyzeRequest } from './protocol.ts';

export interface FacialEngineConfig {
  /** Base URL of the engine; undefined when none is configured (every image is then unavailable). */
  readonly url: string | undefined;
  readonly token: string | undefined;
  readonly timeoutMs: number;
}

/** What the engine made of one image. */
export type FacialAnalysis =
  | {
      readonly kind: 'face';
      /** The label with the highest confidence. */
      readonly emotion: string;
      readonly confidences: Readonly<Record<string, number>>;
      readonly actionUnits: Readonly<Record<string, number>>;
    }
  | { readonly kind: 'no_face' }
  /** The engine could not answer; `reason` never contains the image. */
  | { readonly kind: 'unavailable'; readonly reason: string; readonly unreachable: boolean };

export interface FacialEngine {
  /** Analyses the images in order; never throws: failures become `unavailable`. */
  analyzeAll(images: readonly string[]): Promise<FacialAnalysis[]>;
}

const CONCURRENCY = 4;

/** The HTTP client of the self-hosted facial analysis engine (protocol in README.md). */
export function createFacialEngine(config: FacialEngineConfig): FacialEngine {
  // Joined as text so that a base path (`http://engine/v2`) is kept.
  const target = config.url ? new URL(config.url.replace(/\/+$/, '') + ANALYZE_PATH) : null;

  async function analyze(image: string): Promise<FacialAnalysis> {
    if (!target) return { kind: 'unavailable', reason: 'FACIAL_ENGINE_URL is not set', unreachable: true };
    let response: Response;
    try {
      response = await fetch(target, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(config.token ? { Authorization: `Token ${config.token}` } : {}),
        },
        body: JSON.stringify({ image } satisfies AnalyzeRequest),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      return { kind: 'unavailable', reason: timedOut ? 'timed out' : 'unreachable', unreachable: true };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return {
        kind: 'unavailable',
        reason: `HTTP ${response.status} without a JSON body`,
        unreachable: false,
      };
    }
    if (!response.ok) return { kind: 'unavailable', reason: `HTTP ${response.status}`, unreachable: false };
    const parsed = analyzeResponse.safeParse(body);
    if (!parsed.success)
      return { kind: 'unavailable', reason: 'answer breaks the protocol', unreachable: false };
    const face = parsed.data.faces[0];
    const emotion = face && dominantEmotion(face.emotions);
    if (!face || !emotion) return { kind: 'no_face' };
    return { kind: 'face', emotion, confidences: face.emotions, actionUnits: face.actionUnits };
  }

  return {
    async analyzeAll(images) {
      const results = new Array<FacialAnalysis>(images.length);
      let next = 0;
      let broken: FacialAnalysis | undefined;
      // A dead engine costs one timeout per request: after it, the rest of the batch is not sent.
      const lane = async () => {
        while (next < images.length) {
          const index = next++;
          results[index] = broken ?? (await analyze(images[index]!));
          if (!broken && results[index].kind === 'unavailable' && results[index].unreachable)
            broken = results[index];
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, images.length) }, lane));
      return results;
    },
  };
}
