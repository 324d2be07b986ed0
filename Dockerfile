# One image for the API, the worker, the facial engine and the one-shot migration; the command picks the role.
FROM node:20-bookworm-slim
# Debian's Chromium drives the accessibility audits in the worker (CHROMIUM_PATH below is where the
# package puts it); nothing downloads a browser at build or run time. Liberation fonts give pages
# real text metrics, which contrast and target-size checks depend on.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# Without SMTP_URL mail (and, without a bot token, messages) is written to OUTBOX_DIR: a directory
# the unprivileged user owns, mounted as a volume by docker-compose.yml.
ENV NODE_ENV=production CHROMIUM_PATH=/usr/bin/chromium OUTBOX_DIR=/var/lib/usability/outbox
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only: pa11y (a development dependency, for the audit benchmark) is what
# would bring puppeteer and its browser download, so nothing here fetches a browser.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
RUN mkdir -p "$OUTBOX_DIR" && chown -R node:node "$(dirname "$OUTBOX_DIR")"
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "api/main.ts"]
