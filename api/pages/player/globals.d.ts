// What the replay page has before the player runs: rrweb's browser build (`/assets/rrweb.js`),
// typed for moment-player.js only (this folder's tsconfig.json; the root project leaves it out).

interface RrwebReplayer {
  readonly iframe: HTMLIFrameElement;
  readonly wrapper: HTMLElement;
  play(timeOffset?: number): void;
  pause(timeOffset?: number): void;
  getCurrentTime(): number;
  on(event: string, handler: () => void): void;
}

interface Window {
  rrweb?: { Replayer: new (events: unknown[], options: object) => RrwebReplayer };
}
