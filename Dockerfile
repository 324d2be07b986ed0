# The session recorder's package, built for the service at BASE_URL (the extension trusts that one
# origin; docker-compose.yml passes the same BASE_URL as the services'). Its build needs the
# development dependencies, which stay in this stage; the image below takes the zip and its facts.
FROM node:26.12.1-trixie-slim AS recorder
ARG BASE_URL=http://localhost:3000
WORKDIR /build
# .puppeteerrc.json first: it stops pa11y's puppeteer from downloading a browser at install, and
# onnxruntime-node's install script from downloading CUDA libraries.
COPY package.json package-lock.json .puppeteerrc.json ./
RUN ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm ci --no-audit --no-fund
COPY . .
RUN node --import tsx scripts/build-extension.ts --service "$BASE_URL"

# One image for the API, the worker, the facial engine and the one-shot migration; the command picks the role.
FROM node:26.12.1-trixie-slim
# Debian's Chromium headless shell drives the accessibility audits in the worker (CHROMIUM_PATH below
# is where the package puts it; docs/decisions/audits.md); nothing downloads a browser at build or run
# time. Liberation fonts give pages real text metrics, which contrast and target-size checks depend on.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium-headless-shell fonts-liberation ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# Without SMTP_URL mail (and, without a bot token, messages) is written to OUTBOX_DIR: a directory
# the unprivileged user owns, mounted as a volume by docker-compose.yml.
# The session start page offers the recorder's package from RECORDER_PACKAGE_DIR (the first stage's).
ENV NODE_ENV=production CHROMIUM_PATH=/usr/bin/chromium-headless-shell OUTBOX_DIR=/var/lib/usability/outbox \
    RECORDER_PACKAGE_DIR=/app/dist
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only: pa11y (a development dependency, for the audit benchmark) is what
# would bring puppeteer and its browser download, so nothing here fetches a browser.
# The image's own Node is the runtime: the same version as the optional `node-linux-*` package that
# `npm test` runs on (package.json), whose second copy of the binary is dropped here.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
 && rm -rf node_modules/node-linux-* node_modules/.bin/node
COPY . .
COPY --from=recorder /build/dist/usability-session-recorder.* ${RECORDER_PACKAGE_DIR}/
RUN mkdir -p "$OUTBOX_DIR" && chown -R node:node "$(dirname "$OUTBOX_DIR")"
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "api/main.ts"]
