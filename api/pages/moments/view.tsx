import { PLAYER_SCRIPT_PATH, RRWEB_SCRIPT_PATH } from '../paths.ts';
import { PageHead } from '../shared/layout.tsx';
import { SLIDER_STEP_MS, type MomentReplay } from './data.ts';

/** JSON inside a script element: nothing in it can end the element or open a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * `/sessions/:id/moments/:noteId`: the replay of a finding's moment, a page of its own that the
 * report and review pages frame (its policy lets the replay rebuild the recorded styles, in a frame of this
 * site only). The controls are a button, a slider and a button back to the moment.
 */
export function MomentPage({ replay }: { replay: MomentReplay }) {
  const { finding, events } = replay;
  const title = "Replay of the finding's moment";
  const seconds = Math.round((replay.at - replay.from) / 1000);
  return (
    <html lang="en">
      <PageHead title={title} />
      <body class="player">
        <main>
          <h1>{title}</h1>
          {events ? (
            <>
              <p id="replay-description">
                {`The tester's screen from ${seconds} s before the moment to ${Math.round((replay.to - replay.at) / 1000)} s after, replayed from the session's screen recording (what the tester typed is masked). It starts at the moment. The finding: ${finding}`}
              </p>
              <div id="stage" class="replay-stage" role="img" aria-labelledby="replay-description" />
              <div class="player-controls">
                <button type="button" id="play">
                  Play
                </button>
                <button type="button" id="back-to-moment">
                  Back to the moment
                </button>
                <label for="position">Position</label>
                <input
                  type="range"
                  id="position"
                  min="0"
                  max={String(replay.to - replay.from)}
                  step={String(SLIDER_STEP_MS)}
                  value={String(replay.at - replay.from)}
                />
                <output id="position-text" for="position">
                  at the moment of the finding
                </output>
              </div>
              <script
                type="application/json"
                id="moment-events"
                dangerouslySetInnerHTML={{
                  __html: scriptJson({ events, from: replay.from, at: replay.at, to: replay.to }),
                }}
              />
              <script src={RRWEB_SCRIPT_PATH} />
              <script src={PLAYER_SCRIPT_PATH} />
            </>
          ) : (
            <p>No screen recording covers this moment, so there is nothing to replay.</p>
          )}
        </main>
      </body>
    </html>
  );
}
