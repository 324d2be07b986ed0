import type { Page } from 'playwright-core';
import { hashPassword } from '../../api/auth/password-hash.ts';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { tabTo } from './keyboard.ts';

/** Gives an account made by a factory a password, and answers its email address. */
export async function withPassword(userId: string, password: string): Promise<string> {
  const passwordHash = await hashPassword(password);
  const row = await asSystem(testDatabase(), (tx) =>
    tx
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', userId)
      .returning('email')
      .executeTakeFirstOrThrow(),
  );
  return row.email;
}

/** On the sign-in page: types the email and password with the keyboard and submits, waiting for `next`. */
export async function signInByKeyboard(
  page: Page,
  email: string,
  password: string,
  next: string,
): Promise<void> {
  await tabTo(page, '#field-email');
  await page.keyboard.type(email);
  await tabTo(page, '#field-password');
  await page.keyboard.type(password);
  await Promise.all([page.waitForURL(`**${next}`), page.keyboard.press('Enter')]);
}
