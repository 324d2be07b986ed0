// `npm run demo`: one study's whole life through the public HTTP API of the service `npm start`
// runs, with the local providers (payments, email outbox, the local analyst). `--by-hand` waits at
// each human step for a person to do it in the browser. See docs/demo.md.
import { hashPassword } from '../api/auth/password-hash.ts';
import { loadConfig } from '../config/index.ts';
import { connectDatabase } from '../db/connection.ts';
import { seedDatabase } from '../db/seed/seed.ts';
import { SEED_ADMIN, SEED_PASSWORD } from '../db/seed/seed-data.ts';
import { prepareDatabase } from './lib/database.ts';
import { runDemo } from './lib/demo/run-demo.ts';

const config = loadConfig();
const args = process.argv.slice(2);
const byHand = args.includes('--by-hand');
const country =
  /^--country=([A-Z]{2})$/.exec(args.find((arg) => arg.startsWith('--country=')) ?? '')?.[1] ?? 'IE';
const baseUrl = config.http.baseUrl;

function refuse(message: string): never {
  console.error(`demo: ${message}`);
  process.exit(1);
}

const health = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
if (!health) {
  refuse(
    `the service does not answer at ${baseUrl} (BASE_URL). Start it with \`npm start\` in another terminal, then run \`npm run demo\` again.`,
  );
}
if (!health.ok)
  refuse(`the service at ${baseUrl} is not healthy (GET /api/health answered ${health.status}).`);
if (config.payments.mode !== 'local')
  refuse('the demo pays with the local payment provider: unset STRIPE_SECRET_KEY and PAYMENTS_PROVIDER.');
if (config.email.smtpUrl)
  refuse(`the demo reads the testers' and businesses' mail in ${config.email.outboxDir}: unset SMTP_URL.`);

// The demo data set gives the demo an admin (only an admin reads the quiz's answers) and a quiz.
await prepareDatabase(config.database);
const handle = connectDatabase(config.database.url, { poolSize: 2 });
try {
  await seedDatabase(handle.db, await hashPassword(SEED_PASSWORD));
} finally {
  await handle.close();
}

console.log(`One study's whole life on ${baseUrl}${byHand ? ', with the human steps left to you' : ''}.`);
try {
  const summary = await runDemo({
    baseUrl,
    outboxDir: config.email.outboxDir,
    temporalUi: { url: config.temporal.uiUrl, namespace: config.temporal.namespace },
    admin: { email: SEED_ADMIN.email, password: SEED_PASSWORD },
    country,
    byHand,
    print: (line) => console.log(line),
  });
  console.log(`
Summary
  Study "${summary.jobId}": ${summary.studyStatus}; study report ${summary.studyReport}
  Session ${summary.sessionId}: confirmed by its tester, report ${summary.reportId}
  Payout ${summary.payout}; the tester has ${summary.points} points (level ${summary.level})
  Sign in at ${baseUrl}/login as ${summary.business} or ${summary.tester} (password ${summary.password})
  to see each page; run \`npm run demo -- --by-hand\` to do the human steps yourself.`);
} catch (error) {
  refuse((error as Error).message);
}
