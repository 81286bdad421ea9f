# syntax=docker/dockerfile:1
# ledger in a container (docs/operations.md, "Deploying"). Build: docker build -t ledger .
# Run (SQLite in a volume): docker run -p 3000:3000 -v ledger-data:/data ledger
# Run (PostgreSQL):        docker run -p 3000:3000 -e LEDGER_DB=postgres://... ledger

# Build stage: compilers for better-sqlite3, the dev dependencies, the build.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# The same install the README's quick start and CI use; its prepare step runs `npm run build`.
RUN npm ci --no-audit --no-fund
# What the running server needs: the runtime dependencies only.
RUN npm prune --omit=dev --no-audit --no-fund

# Final stage: no compiler, no dev dependency, no source; a non-root user; tini as PID 1.
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown node:node /data && chmod 700 /data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/bin ./bin
COPY --from=build --chown=root:root /app/dist ./dist
ENV NODE_ENV=production \
    LEDGER_DB=/data/ledger.db \
    LEDGER_HOST=0.0.0.0 \
    PORT=3000
USER node
VOLUME ["/data"]
EXPOSE 3000
# `ledger health` asks the server's /readyz: ready means the database answers with a current schema.
HEALTHCHECK --interval=15s --timeout=6s --start-period=20s --retries=3 CMD ["node", "bin/ledger.js", "health"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# The same as `npm start`; SIGTERM (docker stop) lets requests in flight finish.
CMD ["node", "bin/ledger.js", "serve"]
