import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../api/auth/password-hash.ts';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';

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
  role: 'business' | 'tester' | 'admin' = 'tester',
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

/** A draft study of the organization, inserted directly. */
export async function insertStudy(organizationId: string): Promise<string> {
  const row = await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('studies')
      .values({
        organization_id: organizationId,
        title: 'Study',
        description: 'Objectives',
        prototype_url: 'https://shop.example',
        prototype_type: 'url',
        target_countries: ['GB'],
        target_devices: ['desktop'],
        tester_count: 1,
        compensation_currency: 'EUR',
        compensation_amount: 10,
        compensation_type: 'flat',
        require_think_aloud: false,
        record_screen: false,
        record_facial: false,
        record_voice: false,
        max_duration_minutes: 60,
        reminder_after_hours: null,
        tone_profile: 'moderate',
        estimated_launch_date: new Date(),
        target_languages: ['en'],
        ab_test_enabled: false,
        target_age_min: null,
        target_age_max: null,
        idempotency_key: null,
        request_hash: null,
        paid_at: null,
        created_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return row.id;
}
