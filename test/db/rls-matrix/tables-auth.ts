import { randomUUID } from 'node:crypto';
import { tableCells, type TableCells } from './matrix.ts';
import { ADMIN, OWNER_ORG, systemRow, TESTER } from './tables-core.ts';
import { email, hex64, unique } from './unique.ts';

const issued = { created_at: '2030-01-01T00:00:00Z', expires_at: '2030-01-01T00:15:00Z' };

export const AUTH_TABLES: readonly TableCells[] = [
  tableCells({
    table: 'refresh_tokens',
    rule: 'refresh tokens: secrets, admins only (the API uses the system door)',
    rows: [
      systemRow({
        key: (f) => ({ id: f.refreshToken }),
        touch: 'revoked_at',
        select: ADMIN,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          user_id: f.actors.businessA.sub,
          family_id: randomUUID(),
          token_hash: hex64(),
          ...issued,
          family_expires_at: '2030-01-31T00:00:00Z',
        }),
    },
  }),
  tableCells({
    table: 'api_tokens',
    rule: "API tokens: the organization's owners see, issue (under their own id) and revoke them; never other organizations",
    rows: [
      {
        key: (f) => ({ id: f.apiToken }),
        touch: 'name',
        select: OWNER_ORG,
        update: OWNER_ORG,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f, actor) =>
        into.values({
          organization_id: f.organizationA,
          created_by: actor.sub,
          name: 'Deploy',
          scope: 'read_write',
          token_hash: hex64(),
          token_prefix: 'uat_ijklmnop',
          created_at: issued.created_at,
        }),
    },
  }),
  tableCells({
    table: 'one_time_tokens',
    rule: 'one-time tokens: secrets, admins only (the API uses the system door)',
    rows: [systemRow({ key: (f) => ({ id: f.oneTimeToken }), touch: 'used_at', select: ADMIN })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          user_id: f.actors.businessA.sub,
          purpose: 'password_reset',
          token_hash: hex64(),
          ...issued,
        }),
    },
  }),
  tableCells({
    table: 'oauth_states',
    rule: 'OAuth states: secrets, admins only (the API uses the system door)',
    rows: [
      systemRow({
        key: (f) => ({ state_hash: f.oauthState }),
        touch: 'used_at',
        select: ADMIN,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into) =>
        into.values({ state_hash: hex64(), provider: 'p2', code_verifier: 'w'.repeat(43), ...issued }),
    },
  }),
  tableCells({
    table: 'user_identities',
    rule: 'user identities: a user sees and unlinks their own; only the system links them',
    rows: [
      { key: (f) => ({ id: f.identity }), touch: 'email', select: TESTER, update: ADMIN, delete: TESTER },
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({ user_id: f.actors.testerWith.sub, provider: 'p2', subject: unique('sub') }),
    },
  }),
  tableCells({
    table: 'login_failures',
    rule: 'login failures: counters, admins only (the API uses the system door)',
    rows: [
      systemRow({
        key: (f) => ({ email: f.loginFailure }),
        touch: 'failure_count',
        select: ADMIN,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into) =>
        into.values({ email: email('failed'), failure_count: 1, last_failure_at: issued.created_at }),
    },
  }),
];
