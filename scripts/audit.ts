// `npm run audit -- <url>... [--format] [--fail-on] [--full] [--output]`: accessibility audits of
// URLs through the service's API, for a team's pipeline as pa11y-ci is used (USAGE says the rest).
import { writeFile } from 'node:fs/promises';
import { issueCountsText } from '../lib/audits.ts';
import { combined } from './lib/audit-cli/combine.ts';
import { fails, parseOptions, USAGE, UsageError } from './lib/audit-cli/options.ts';
import { AuditError, auditClient, type AuditOutcome } from './lib/audit-cli/run-audits.ts';

const EXIT = { clean: 0, failed: 1, error: 2 } as const;

async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`audit: ${error.message}\n\n${USAGE}`);
    return EXIT.error;
  }
  const token = process.env.AUDIT_API_TOKEN;
  if (!token) {
    console.error(`audit: AUDIT_API_TOKEN is not set\n\n${USAGE}`);
    return EXIT.error;
  }
  const apiUrl = process.env.AUDIT_API_URL || process.env.BASE_URL || 'http://localhost:3000';
  const client = auditClient(apiUrl, token);
  const outcomes: AuditOutcome[] = [];
  let failed = false;
  try {
    for (const url of options.urls) {
      const outcome = await client.audit(url, options);
      const failing = fails(outcome.issueCounts, options.failOn);
      failed ||= failing;
      console.error(
        `${failing ? 'FAIL' : 'pass'} ${url}: score ${outcome.score} (grade ${outcome.grade}); ${issueCountsText(outcome.issueCounts)}`,
      );
      outcomes.push(outcome);
    }
  } catch (error) {
    if (!(error instanceof AuditError)) throw error;
    console.error(`audit: ${error.message}`);
    return EXIT.error;
  }
  const document = combined(
    options.format,
    outcomes.map((outcome) => outcome.document),
  );
  if (options.output) await writeFile(options.output, document);
  else process.stdout.write(document);
  if (failed)
    console.error(`audit: issues of severity ${options.failOn} or worse found (--fail-on ${options.failOn})`);
  return failed ? EXIT.failed : EXIT.clean;
}

// Anything unforeseen (an answer that is not the API's, a file that cannot be written) is "the audit
// could not run", never "issues found".
process.exitCode = await main().catch((error: unknown) => {
  console.error(`audit: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.error;
});
