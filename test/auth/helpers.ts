import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { hashPassword } from '../../api/auth/password-hash.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem, type Claims } from '../../db/doors.ts';
import type { StudiesTable } from '../../db/schema.ts';
import type { UserRole } from '../../lib/domain.ts';
import { testDatabase } from '../support/database.ts';
import { createTester } from '../support/factories.ts';
import { plainStudyColumns } from '../support/study-body.ts';

/** A clock the API reads instead of the wall clock; tests move it, never sleep. */
export class TestClock {
  constructor(public current = new Date('2030-01-01T00:00:00.000Z')) {}
  readonly now = () => new Date(this.current);
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface PasswordUser {
  readonly id: string;
  readonly email: string;
  readonly password: string;
}

/** A user with a password, inserted directly (registration has its own tests). */
export async function createPasswordUser(
  role: UserRole = 'tester',
  status: 'active' | 'suspended' = 'active',
): Promise<PasswordUser> {
  const email = `user-${randomUUID()}@example.com`;
  const password = `pw-${randomUUID()}`;
  const passwordHash = await hashPassword(password);
  const row = await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('users')
      .values({ email, role, display_name: 'User', password_hash: passwordHash, status })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return { id: row.id, email, password };
}

/** Set-Cookie headers of a response, by cookie name. */
export function setCookies(headers: Headers): Map<string, { value: string; attributes: string[] }> {
  const cookies = new Map<string, { value: string; attributes: string[] }>();
  for (const line of headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const at = pair.indexOf('=');
    cookies.set(pair.slice(0, at), { value: pair.slice(at + 1), attributes });
  }
  return cookies;
}

export function cookieValue(headers: Headers, name: string): string {
  const cookie = setCookies(headers).get(name);
  if (!cookie) throw new Error(`no Set-Cookie for ${name}`);
  return cookie.value;
}

/** The token of the emailed link to `page` of the web app (tests run with BASE_URL https://usability.example). */
export function tokenFromMail(text: string | undefined, page: string): string {
  const match = new RegExp(`https://usability\\.example${page}\\?token=([A-Za-z0-9_-]+)`).exec(text ?? '');
  assert.ok(match, `no ${page} link in the mail`);
  return match[1]!;
}

/** A study of the organization, inserted directly: a draft unless `fields` say otherwise. */
export async function insertStudy(
  organizationId: string,
  fields: Partial<Insertable<StudiesTable>> = {},
  db: Db = testDatabase(),
): Promise<string> {
  const row = await asSystem(db, (tx) =>
    tx
      .insertInto('studies')
      .values({
        ...plainStudyColumns(),
        organization_id: organizationId,
        title: 'Study',
        description: 'Objectives',
        prototype_url: 'https://shop.example',
        compensation_currency: 'EUR',
        compensation_amount: 10,
        paid_at: null,
        created_by: null,
        ...fields,
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return row.id;
}

/** A tester with a profile; `chatId` is where the messaging channel reaches them (null: no chat linked). */
export async function testerWithProfile(chatId: string | null = null): Promise<Claims> {
  const tester = await createTester();
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('tester_profiles')
      .values({
        user_id: tester.sub,
        country: 'GB',
        devices: ['desktop'],
        status: 'active',
        messaging_chat_id: chatId,
      })
      .execute(),
  );
  return tester;
}
