import { gunzipSync } from 'node:zlib';

// What no request of a session may carry (issue 32, point 5): the bytes of an image, a sound or a
// video (a picture of the tester's screen or face, their voice), raw or in base64, at any depth of
// base64 and gzip; a data URL of one; or what the tester typed.

interface Signature {
  readonly name: string;
  readonly bytes: Buffer;
  /** Where in the file the bytes are (0: its first byte). */
  readonly at?: number;
}

const ascii = (text: string) => Buffer.from(text, 'latin1');

/** The opening bytes of the common image, sound and video containers. */
const SIGNATURES: readonly Signature[] = [
  { name: 'PNG', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { name: 'JPEG', bytes: Buffer.from([0xff, 0xd8, 0xff]) },
  { name: 'GIF', bytes: ascii('GIF8') },
  { name: 'WebP', bytes: ascii('WEBP'), at: 8 },
  { name: 'WAV', bytes: ascii('WAVE'), at: 8 },
  { name: 'AVI', bytes: ascii('AVI '), at: 8 },
  { name: 'RIFF', bytes: ascii('RIFF') },
  { name: 'Ogg', bytes: ascii('OggS') },
  { name: 'WebM/Matroska', bytes: Buffer.from([0x1a, 0x45, 0xdf, 0xa3]) },
  { name: 'MP4/MOV/AVIF/HEIC', bytes: ascii('ftyp'), at: 4 },
  { name: 'MP3 (ID3)', bytes: ascii('ID3') },
  { name: 'MP3/AAC frame', bytes: Buffer.from([0xff, 0xfb]) },
  { name: 'AAC (ADTS)', bytes: Buffer.from([0xff, 0xf1]) },
  { name: 'FLAC', bytes: ascii('fLaC') },
  { name: 'TIFF', bytes: Buffer.from([0x49, 0x49, 0x2a, 0x00]) },
  { name: 'BMP', bytes: ascii('BM'), at: 0 },
  { name: 'Y4M', bytes: ascii('YUV4MPEG2') },
  { name: 'raw PCM (Float32 WAV header)', bytes: ascii('fmt '), at: 12 },
];

const GZIP = Buffer.from([0x1f, 0x8b]);
/** Runs long enough to hold a picture or a sound (shorter ones are words, ids and tokens). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{64,}={0,2}/g;
const MEDIA_DATA_URL = /data:(?:image|audio|video)\//i;

/** The container a buffer opens with, if it is one. BMP needs its own header to count. */
function containerOf(bytes: Buffer): string | undefined {
  for (const signature of SIGNATURES) {
    const at = signature.at ?? 0;
    if (bytes.length < at + signature.bytes.length) continue;
    if (!bytes.subarray(at, at + signature.bytes.length).equals(signature.bytes)) continue;
    // "BM" opens many texts: a bitmap also says its own length right after.
    if (signature.name === 'BMP' && (bytes.length < 14 || bytes.readUInt32LE(2) !== bytes.length)) continue;
    return signature.name;
  }
  return undefined;
}

/**
 * What is wrong with one body (or URL): each layer is its bytes, then every base64 run in its text
 * decoded, then every gzip stream inflated, down to any depth.
 */
export function privateBytesIn(body: Buffer, typed: readonly string[], where = 'body'): string[] {
  const found: string[] = [];
  const visit = (bytes: Buffer, path: string, depth: number) => {
    const container = containerOf(bytes);
    if (container) found.push(`${path}: ${container} bytes`);
    if (bytes.subarray(0, 2).equals(GZIP)) {
      try {
        visit(gunzipSync(bytes), `${path} > gzip`, depth + 1);
      } catch {
        // Not a whole gzip stream: judged as bytes.
      }
      return;
    }
    const text = bytes.toString('utf8');
    if (MEDIA_DATA_URL.test(text)) found.push(`${path}: a data URL of media`);
    for (const secret of typed)
      for (const form of new Set([secret, encodeURIComponent(secret)]))
        if (text.includes(form)) found.push(`${path}: the typed "${secret}"`);
    if (depth > 4) return;
    for (const run of text.match(BASE64_RUN) ?? []) {
      const decoded = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      visit(decoded, `${path} > base64`, depth + 1);
    }
  };
  visit(body, where, 0);
  return found;
}
