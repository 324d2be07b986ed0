import type { ComponentChildren } from 'preact';
import type { UserRole } from '../../../lib/domain.ts';
import {
  DASHBOARD_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  OFFERS_PATH,
  PROFILE_PATH,
  REGISTER_PATH,
  STYLESHEET_PATH,
} from '../paths.ts';
import { CSRF_FIELD } from './csrf.ts';

/** Who is looking at a page, as the header needs it. */
export interface Viewer {
  readonly id: string;
  readonly role: UserRole;
}

export interface LayoutProps {
  readonly title: string;
  readonly viewer?: Viewer | undefined;
  /** This browser's form token: the header's sign-out form carries it (signed-in pages only). */
  readonly csrf?: string;
  /** A status line shown above the heading (a confirmation, a notice). */
  readonly notice?: string | undefined;
  readonly children: ComponentChildren;
}

/** Every page's head: its title and the stylesheet. */
export function PageHead({ title }: { title: string }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${title} · Usability testing`}</title>
      <link rel="stylesheet" href={STYLESHEET_PATH} />
    </head>
  );
}

/** Every page: one h1 (the title), landmarks, a skip link, and a sign-out form when signed in. */
export function Layout({ title, viewer, csrf, notice, children }: LayoutProps) {
  return (
    <html lang="en">
      <PageHead title={title} />
      <body>
        <a class="skip-link" href="#main">
          Skip to main content
        </a>
        <header class="site-header">
          <p class="site-name">
            <a href={viewer && csrf ? DASHBOARD_PATH : LOGIN_PATH}>Usability testing</a>
          </p>
          <nav aria-label="Account">
            {viewer && csrf ? (
              <ul>
                <li>
                  <a href={DASHBOARD_PATH}>Dashboard</a>
                </li>
                {viewer.role === 'tester' ? (
                  <>
                    <li>
                      <a href={OFFERS_PATH}>Your offers</a>
                    </li>
                    <li>
                      <a href={PROFILE_PATH}>Your profile</a>
                    </li>
                  </>
                ) : null}
                <li>
                  <form method="post" action={LOGOUT_PATH}>
                    <CsrfField token={csrf} />
                    <button type="submit" class="link-button">
                      Sign out
                    </button>
                  </form>
                </li>
              </ul>
            ) : (
              <ul>
                <li>
                  <a href={LOGIN_PATH}>Sign in</a>
                </li>
                <li>
                  <a href={REGISTER_PATH}>Create an account</a>
                </li>
              </ul>
            )}
          </nav>
        </header>
        <main id="main" tabIndex={-1}>
          {notice ? (
            <p class="notice" role="status">
              {notice}
            </p>
          ) : null}
          <h1>{title}</h1>
          {children}
        </main>
        <footer class="site-footer">
          <p>Usability and accessibility testing service</p>
        </footer>
      </body>
    </html>
  );
}

/** A date as people read it (year-month-day), with the exact time for machines. */
export const day = (at: Date) => <time dateTime={at.toISOString()}>{at.toISOString().slice(0, 10)}</time>;

/** A moment as people read it (the day and the UTC time of day), with the exact time for machines. */
export const dayAndTime = (at: Date) => (
  <time
    dateTime={at.toISOString()}
  >{`${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 19)} UTC`}</time>
);

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}
