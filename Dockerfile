# syntax=docker/dockerfile:1

# The official Node.js 20 image. A build that cannot reach Docker Hub names a copy of it, or a pinned
# digest, with --build-arg NODE_IMAGE=...
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The fixes npm ci applies to dependencies (patch-package, the prepare script).
COPY patches ./patches
# The public registry, unless the build brings its own settings as secrets, read by this step only and
# kept nowhere in the image: an .npmrc (a mirror, a token, a proxy) as `--secret id=npmrc,src=...`,
# and the CA bundle of a TLS-inspecting proxy as `--secret id=npm_ca,src=...`.
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc \
    --mount=type=secret,id=npm_ca,target=/run/secrets/npm_ca \
    npm ci --no-audit --no-fund --cafile=/run/secrets/npm_ca
COPY tsconfig.json tsconfig.build.json tsconfig.cjs.json ./
COPY src ./src
COPY api ./api
COPY workers ./workers
COPY cli ./cli
COPY console ./console
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
# Owned by root and only readable by the service's user: the process cannot change its own code,
# and it writes nothing to disk, so the container runs with a read-only root filesystem.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The service stops gracefully on SIGTERM and exits within 10 s (plus SHUTDOWN_DELAY_MS): stop it with
# a longer grace (docker stop -t 15, compose's stop_grace_period), so SIGKILL never cuts a clean stop short.
STOPSIGNAL SIGTERM
# ROLE chooses what runs: the API and the workers (all, the default), the API alone (api), or the
# workers alone (workers, with /health, /ready and /metrics on PORT).
CMD ["node", "--max-semi-space-size=64", "dist/cli/main.js", "start"]
