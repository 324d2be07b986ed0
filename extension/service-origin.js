// @ts-check
// The one service the extension trusts to hand it a session (handoff.js, on its session start
// pages), and whose API it may reach without asking. `npm run build:extension` writes the origin it
// was built for here and into the manifest (`--service <origin>`, by default the service's
// BASE_URL); this source names `npm start`'s.
export const SERVICE_ORIGIN = 'http://localhost:3000';
