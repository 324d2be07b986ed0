// `npm run demo`: one study's whole life through the public HTTP API of the service `npm start`
// runs, with the local providers (payments, email outbox, the local analyst). `--by-hand` waits at
// each human step for a person to do it in the browser. See the README, "The demo".
import { loadConfig } from '../config/index.ts';
import { prepareDemo } from './lib/demo/prepare-demo.ts';
import { runDemo } from './lib/demo/run-demo.ts';

const args = process.argv.slice(2);
const byHand = args.includes('--by-hand');
const country =
  /^--country=([A-Z]{2})$/.exec(args.find((arg) => arg.startsWith('--country=')) ?? '')?.[1] ?? 'IE';

try {
  const settings = await prepareDemo(loadConfig(), country);
  console.log(
    `One study's whole life on ${settings.baseUrl}${byHand ? ', with the human steps left to you' : ''}.`,
  );
  const webhookUrl = process.env.DEMO_WEBHOOK_URL;
  const summary = await runDemo({
    ...settings,
    byHand,
    print: (line) => console.log(line),
    ...(webhookUrl ? { webhookUrl } : {}),
  });
  console.log(`
Summary
  Study ${summary.jobId}: ${summary.studyStatus}; study report ${summary.studyReport}
  Session ${summary.sessionId}: confirmed by its tester, report ${summary.reportId}
  Payout ${summary.payout}; the tester has ${summary.points} points (level ${summary.level})
  Sign in at ${settings.baseUrl}/login as ${summary.business} or ${summary.tester} (password ${summary.password})
  to see each page; run \`npm run demo -- --by-hand\` to do the human steps yourself.`);
} catch (error) {
  console.error(`demo: ${(error as Error).message}`);
  process.exit(1);
}
