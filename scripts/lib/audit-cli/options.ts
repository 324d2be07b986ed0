// `npm run audit`'s command line: the URLs, the format of what it prints, the severity that fails
// the run, a full audit (optionally crawling) instead of an instant one, and headers and cookies
// for pages behind a login.

import { SEVERITIES, type Severity } from '../../../lib/audits.ts';

export const FORMATS = ['json', 'sarif', 'junit', 'earl'] as const;
export type Format = (typeof FORMATS)[number];

export interface AuditCliOptions {
  readonly urls: readonly string[];
  readonly format: Format;
  /** Issues of this severity or worse fail the run; `never`: none does. */
  readonly failOn: Severity | 'never';
  readonly full: boolean;
  readonly crawl: boolean;
  readonly maxPages: number | undefined;
  /** Where the document goes; standard output when absent. */
  readonly output: string | undefined;
  /** Sent with every request to each audited URL's origin (the API's `headers` and `cookies`). */
  readonly headers: Readonly<Record<string, string>>;
  readonly cookies: readonly { readonly name: string; readonly value: string }[];
}

export const USAGE = `usage: npm run audit -- <url>... [--format json|sarif|junit|earl] [--fail-on critical|serious|moderate|minor|never]
                            [--full [--crawl] [--max-pages N]] [--output FILE]
                            [--header 'Name: value']... [--cookie name=value]...

Audits each URL through the service's API and prints the results in one document of the format
(default json); a summary line per URL goes to standard error. Exits 1 when an issue of the
--fail-on severity or worse was found (default serious: a critical or serious issue fails), 2 when
the command line is wrong or an audit could not run, 0 otherwise. --header and --cookie (each as
often as needed) are sent with every request to the audited URL's origin, and to no other: for
pages behind a login (the service never stores them).

Environment: AUDIT_API_TOKEN (required), an API token of scope read_write or admin (POST
/api/auth/tokens); AUDIT_API_URL, the service (default BASE_URL, else http://localhost:3000).`;

export class UsageError extends Error {}

const valueOf = <T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T => {
  if (value === undefined || !allowed.includes(value as T))
    throw new UsageError(
      `${flag} takes one of ${allowed.join(', ')}${value === undefined ? '' : ` (not ${value})`}`,
    );
  return value as T;
};

/** The options of `args` (what follows `--`); throws UsageError for anything it does not know. */
export function parseOptions(args: readonly string[]): AuditCliOptions {
  const urls: string[] = [];
  let format: Format = 'json';
  let failOn: Severity | 'never' = 'serious';
  let full = false;
  let crawl = false;
  let maxPages: number | undefined;
  let output: string | undefined;
  const headers: Record<string, string> = {};
  const cookies: { name: string; value: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.startsWith('--') ? args[i]!.split(/=(.*)/s, 2) : [args[i]!, undefined];
    const next = () => inline ?? args[++i];
    switch (flag) {
      case '--format':
        format = valueOf('--format', next(), FORMATS);
        break;
      case '--fail-on':
        failOn = valueOf('--fail-on', next(), [...SEVERITIES, 'never'] as const);
        break;
      case '--full':
        full = true;
        break;
      case '--crawl':
        crawl = true;
        break;
      case '--max-pages': {
        const value = next();
        maxPages = Number(value);
        if (!/^\d+$/.test(value ?? '') || maxPages < 1 || maxPages > 50)
          throw new UsageError(
            `--max-pages takes a whole number from 1 to 50${value ? ` (not ${value})` : ''}`,
          );
        break;
      }
      case '--output':
        output = next();
        if (!output) throw new UsageError('--output takes a file name');
        break;
      case '--header': {
        const header = /^([^:\s]+):\s*(.*)$/s.exec(next() ?? '');
        if (!header) throw new UsageError("--header takes 'Name: value'");
        headers[header[1]!] = header[2]!;
        break;
      }
      case '--cookie': {
        const cookie = /^([^=\s]+)=(.*)$/s.exec(next() ?? '');
        if (!cookie) throw new UsageError('--cookie takes name=value');
        cookies.push({ name: cookie[1]!, value: cookie[2]! });
        break;
      }
      default:
        if (flag.startsWith('-')) throw new UsageError(`unknown option ${flag}`);
        if (!URL.canParse(flag) || !/^https?:$/.test(new URL(flag).protocol))
          throw new UsageError(`not an http(s) URL: ${flag}`);
        urls.push(flag);
    }
  }
  if (!urls.length) throw new UsageError('give at least one URL');
  if ((crawl || maxPages !== undefined) && !full)
    throw new UsageError('--crawl and --max-pages go with --full');
  return { urls, format, failOn, full, crawl, maxPages, output, headers, cookies };
}

/** Whether issue counts fail the run at `failOn`. */
export function fails(counts: Readonly<Record<Severity, number>>, failOn: Severity | 'never'): boolean {
  if (failOn === 'never') return false;
  return SEVERITIES.slice(0, SEVERITIES.indexOf(failOn) + 1).some((severity) => counts[severity] > 0);
}
