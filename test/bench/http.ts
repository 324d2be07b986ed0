// The study slice under load: POST /api/jobs (validation, insert through the RLS door, workflow
// start) and GET /api/jobs/:id, against the real database and Temporal server.
import assert from 'node:assert/strict';
import { startTestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import { median, percentile, round, timedPool } from './support/stats.ts';

const ROUNDS = 3;
const CREATES_PER_ROUND = 100;
const READS_PER_ROUND = 300;
const CONCURRENCY = 8;

export async function run() {
  // Each round is a fresh pro organization: its 400 requests stay under the tier's 600 per minute,
  // so the limiter never throttles what is being measured.
  const api = await startTestApi();
  const rounds: Array<Record<string, number>> = [];
  try {
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
      const business = await createBusiness('pro');
      const token = await sessionToken(business.claims);
      const ids: string[] = [];
      const creates = await timedPool(CREATES_PER_ROUND, CONCURRENCY, async () => {
        const response = await api.request('POST', '/api/jobs', { token, body: validStudyBody() });
        assert.equal(response.status, 201, response.text);
        ids.push((response.body.data as { jobId: string }).jobId);
      });
      const readToken = await sessionToken(business.claims);
      const reads = await timedPool(READS_PER_ROUND, CONCURRENCY, async (index) => {
        const response = await api.request('GET', `/api/jobs/${ids[index % ids.length]!}`, {
          token: readToken,
        });
        assert.equal(response.status, 200, response.text);
      });
      rounds.push({
        createP50Ms: percentile(creates.durations, 50),
        createP95Ms: percentile(creates.durations, 95),
        createsPerSecond: (CREATES_PER_ROUND / creates.totalMs) * 1000,
        readP50Ms: percentile(reads.durations, 50),
        readP95Ms: percentile(reads.durations, 95),
        readsPerSecond: (READS_PER_ROUND / reads.totalMs) * 1000,
      });
    }
  } finally {
    await api.stop();
  }
  const figures: Record<string, number> = {};
  for (const key of Object.keys(rounds[0]!)) figures[key] = round(median(rounds.map((r) => r[key]!)));
  return { figures, runs: ROUNDS };
}
