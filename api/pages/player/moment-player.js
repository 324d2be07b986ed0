// The player of a finding's moment (api/pages/moments): rrweb's Replayer over the events the page
// carries as JSON, with a Play/Pause button, a slider for the position and a button back to the
// moment, all keyboard operable. The replayed page itself is inert: it is a picture to watch, not
// a page to use, and its text alternative is the page's description.
(() => {
  'use strict';
  const source = document.getElementById('moment-events');
  const stage = document.getElementById('stage');
  const slider = /** @type {HTMLInputElement | null} */ (document.getElementById('position'));
  const play = document.getElementById('play');
  const back = document.getElementById('back-to-moment');
  const output = document.getElementById('position-text');
  const rrweb = window.rrweb;
  if (!source || !stage || !slider || !play || !back || !output || !rrweb) return;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the page's own JSON (moments/view.tsx)
  const data = /** @type {{ events: { timestamp: number }[], from: number, at: number, to: number }} */ (
    JSON.parse(source.textContent || '{}')
  );
  const first = data.events[0]?.timestamp ?? data.from;
  const span = data.to - data.from;
  const moment = data.at - data.from;
  const replayer = new rrweb.Replayer(data.events, {
    root: stage,
    mouseTail: false,
    showWarning: false,
    showDebug: false,
    triggerFocus: false,
    UNSAFE_replayCanvas: false,
    skipInactive: false,
  });
  // rrweb rebuilds a full snapshot into a document it opens (document.open) and leaves open, so the
  // replayed page, and with it this page, would never finish loading: each rebuilt document is
  // closed. Later changes are made on its nodes, which a closed document still takes.
  const closeReplayedDocument = () => replayer.iframe.contentDocument?.close();
  replayer.on('fullsnapshot-rebuilded', closeReplayedDocument);
  replayer.iframe.setAttribute('title', 'The replayed page');
  replayer.iframe.setAttribute('tabindex', '-1');
  replayer.wrapper.inert = true;
  replayer.wrapper.setAttribute('aria-hidden', 'true');

  // The recorded viewport, scaled down to the player's width.
  const fit = () => {
    const width = Number(replayer.iframe.getAttribute('width')) || 1280;
    const height = Number(replayer.iframe.getAttribute('height')) || 800;
    const scale = Math.min(1, stage.clientWidth / width);
    replayer.wrapper.style.transformOrigin = 'top left';
    replayer.wrapper.style.transform = `scale(${scale})`;
    stage.style.height = `${Math.ceil(height * scale)}px`;
  };

  /** @param {number} position ms from the window's start */
  const words = (position) => {
    const seconds = (position - moment) / 1000;
    if (Math.abs(seconds) < 0.05) return 'at the moment of the finding';
    return `${Math.abs(seconds).toFixed(1)} s ${seconds < 0 ? 'before' : 'after'} the moment`;
  };

  /** @param {number} position */
  const show = (position) => {
    slider.value = String(Math.round(position));
    slider.setAttribute('aria-valuetext', words(position));
    output.textContent = words(position);
  };

  let playing = false;
  let frame = 0;
  const stop = () => {
    if (!playing) return;
    playing = false;
    cancelAnimationFrame(frame);
    replayer.pause();
    play.textContent = 'Play';
    show(Math.min(span, Math.max(0, replayer.getCurrentTime() - (data.from - first))));
  };
  /** @param {number} position */
  const seek = (position) => {
    stop();
    replayer.pause(data.from - first + position);
    show(position);
  };
  // While playing only the slider moves: its words (and the output, a live region) are said on
  // pause and on seeking, not many times a second.
  const tick = () => {
    const position = replayer.getCurrentTime() - (data.from - first);
    if (position >= span) return seek(span);
    slider.value = String(Math.round(position));
    frame = requestAnimationFrame(tick);
  };
  const start = () => {
    let position = Number(slider.value);
    if (position >= span) position = 0;
    replayer.play(data.from - first + position);
    playing = true;
    play.textContent = 'Pause';
    frame = requestAnimationFrame(tick);
  };

  play.addEventListener('click', () => (playing ? stop() : start()));
  slider.addEventListener('input', () => seek(Number(slider.value)));
  back.addEventListener('click', () => seek(moment));
  replayer.on('resize', fit);
  // The recording may end before the window does: playing stops there.
  replayer.on('finish', stop);
  window.addEventListener('resize', fit);
  fit();
  seek(moment);
  closeReplayedDocument();
  document.documentElement.dataset.player = 'ready';
})();
