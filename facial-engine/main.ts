// The facial engine's process: `node --import tsx facial-engine/main.ts` (npm start runs it when
// FACIAL_ENGINE_URL is unset; docker-compose.yml runs it as its own service).
import { loadConfig } from '../config/index.ts';
import { createLogger } from '../config/logger.ts';
import { loadFaceModel, observeFaces, UnreadableImageError } from './face-model.ts';
import { startFacialEngine } from './server.ts';

const config = loadConfig();
const logger = createLogger(config, 'facial-engine');
const ready = loadFaceModel();
ready.then(
  () => logger.info('face model loaded'),
  (error: unknown) => {
    logger.fatal({ err: error }, 'the face model could not be loaded');
    process.exit(1);
  },
);
const engine = await startFacialEngine(
  {
    observe: observeFaces,
    isUnreadable: (error) => error instanceof UnreadableImageError,
    token: config.facialEngine.token,
    ready,
    onError: (error) => logger.error({ err: error }, 'analysis failed'),
  },
  config.facialEngine.listen,
);
logger.info({ url: engine.url }, 'facial engine listening');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'facial engine stopping');
    void engine.stop().then(() => logger.info('facial engine stopped'));
  });
}
