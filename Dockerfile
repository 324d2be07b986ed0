# One image for the API, the worker and the one-shot migration; the command picks the role.
FROM node:20-bookworm-slim
# Debian's Chromium drives accessibility audits; nothing downloads a browser at build or run time.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV PUPPETEER_SKIP_DOWNLOAD=1 CHROMIUM_PATH=/usr/bin/chromium NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.cjs ./
RUN npm install --no-audit --no-fund && npm cache clean --force
COPY . .
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "api/main.ts"]
