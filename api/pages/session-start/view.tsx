import { RECORDER_DOWNLOAD_PATH, sessionStartPath } from '../paths.ts';
import { CsrfField, Layout, type Viewer } from '../shared/layout.tsx';
import { startable, type SessionToStart } from './data.ts';

/** What the page hands the extension after the button: the recorder's content script reads it. */
export interface Handoff {
  /** The service's address, for pasting by hand (the extension uses the origin it was built for). */
  readonly serviceOrigin: string;
  readonly testToken: string;
  readonly expiresAt: Date;
}

export interface SessionStartPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly session: SessionToStart;
  readonly handoff?: Handoff | undefined;
  readonly notice?: string | undefined;
  /** The page was reached by accepting an offer: the recorder presses its button (`data-autostart`). */
  readonly autostart?: boolean;
  /** The recorder's package this service offers, when one was built for it. */
  readonly recorder?: RecorderPackage | undefined;
}

export interface RecorderPackage {
  readonly version: string;
  readonly bytes: number;
}

/**
 * How to install the recorder. The recorder's content script marks the page
 * (`data-recorder="installed"` on the root element), which hides this section where it is installed.
 */
const sizeText = (bytes: number) =>
  bytes >= 1_000_000 ? `${Math.round(bytes / 1_000_000)} MB` : `${Math.max(1, Math.round(bytes / 1_000))} kB`;

function InstallHelp({ recorder }: { recorder: RecorderPackage | undefined }) {
  return (
    <section class="panel recorder-install" aria-labelledby="install-title">
      <h2 id="install-title">Install the session recorder first</h2>
      <p>
        This browser does not have the session recorder, or it is off. To install it in Chrome, Edge or
        Chromium:
      </p>
      <ol>
        {recorder ? (
          <li>
            <a href={RECORDER_DOWNLOAD_PATH} download>
              Download the session recorder
            </a>{' '}
            (version {recorder.version}, a zip of {sizeText(recorder.bytes)}), then unzip it into a folder you
            keep.
          </li>
        ) : (
          <li>
            Unzip <code>usability-session-recorder.zip</code>, which the study's team sent you, into a folder
            you keep.
          </li>
        )}
        <li>
          Open <code>chrome://extensions</code> (<code>edge://extensions</code> in Edge) and turn on Developer
          mode.
        </li>
        <li>Choose Load unpacked and pick the folder.</li>
        <li>Come back to this page and reload it.</li>
      </ol>
    </section>
  );
}

/** The three values for the recorder's popup, when the hand-over cannot happen. */
function PasteFallback({ session, handoff }: { session: SessionToStart; handoff: Handoff }) {
  return (
    <section class="panel" aria-labelledby="paste-title">
      <h2 id="paste-title">If the recorder did not start</h2>
      <p>
        Open the recorder from the browser's toolbar, enter these three values and press Start. The token
        works until{' '}
        <time dateTime={handoff.expiresAt.toISOString()}>
          {handoff.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
        </time>
        , only for this session, and is shown only on this page.
      </p>
      <dl class="facts">
        <dt>API base URL</dt>
        <dd>
          <code>{handoff.serviceOrigin}</code>
        </dd>
        <dt>Session id</dt>
        <dd>
          <code>{session.id}</code>
        </dd>
        <dt>Test token</dt>
        <dd>
          <code>{handoff.testToken}</code>
        </dd>
      </dl>
    </section>
  );
}

/**
 * The session start page (`/sessions/:id/start`), where accepting an offer leads: one button hands
 * the session to the recorder, which opens the prototype and the tasks (docs/pages.md).
 */
export function SessionStartPage({
  csrf,
  viewer,
  session,
  handoff,
  notice,
  autostart,
  recorder,
}: SessionStartPageProps) {
  return (
    <Layout title={`Start your session: ${session.studyTitle}`} viewer={viewer} csrf={csrf} notice={notice}>
      {handoff ? (
        <>
          <div
            id="recorder-handoff"
            hidden
            data-session-id={session.id}
            data-test-token={handoff.testToken}
          />
          <p id="recorder-status" role="status" aria-live="polite">
            Handing the session to the recorder...
          </p>
          <PasteFallback session={session} handoff={handoff} />
        </>
      ) : null}
      <p>
        The prototype you will test is at <a href={session.prototypeUrl}>{session.prototypeUrl}</a>. The
        recorder sees only that site, and only while the session records: clicks, scrolling and how many
        characters you type, never what you type, and never other sites.
      </p>
      <InstallHelp recorder={recorder} />
      {startable(session) ? (
        <form
          id="start-form"
          method="post"
          action={sessionStartPath(session.id)}
          {...(autostart && !handoff ? { 'data-autostart': '' } : {})}
        >
          <CsrfField token={csrf} />
          <p>
            The button hands the session to the recorder, which asks the browser for access to the prototype's
            site the first time, then opens the prototype and the study's tasks beside it. It replaces the
            test token sent to your chat.
          </p>
          <button id="start-session" type="submit">
            {handoff ? 'Hand it over again' : 'Start the session'}
          </button>
        </form>
      ) : (
        <p>{`This session is ${session.status}: there is nothing left to start.`}</p>
      )}
    </Layout>
  );
}
