# syntax=docker/dockerfile:1
# The ssogate gateway as a container image (docs/deployment.md#container-image).
#
# Base: the official Node.js 24 image (an LTS line) on Debian 12 (bookworm), slim variant.
# Build: docker build -t ssogate .   (or: buildah bud --format docker -t ssogate .;
#        the OCI format has no HEALTHCHECK)
# Run:   docker run --read-only -v ssogate-data:/data -p 8080:8080 \
#          -e SSOGATE_PUBLIC_URL=https://sso.corp.example ssogate
# Nothing secret is in the image: SSOGATE_SECRET_KEY, SSOGATE_ADMIN_PASSWORD
# and database passwords are given at run time.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------- build
# Every dependency, to compile the TypeScript and build the console.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# better-sqlite3 ships its Node-API binaries in the package: nothing compiles
# (package.json's allowScripts denies its build from source).
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY console ./console
COPY src ./src
RUN npm run build

# -------------------------------------------------- production modules
FROM build AS production-modules
RUN npm prune --omit=dev --no-audit --no-fund

# -------------------------------------------------------------- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    SSOGATE_HOST=0.0.0.0 \
    SSOGATE_PORT=8080 \
    SSOGATE_DATA_DIR=/data
WORKDIR /app
# package.json marks the package root, where the console is looked for (dist/console).
COPY --from=build /src/package.json ./
COPY --from=production-modules /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# `ssogate doctor`, `ssogate token create` ... inside the container.
RUN printf '#!/bin/sh\nexec node /app/dist/cli/ssogate.js "$@"\n' > /usr/local/bin/ssogate \
 && chmod 0755 /usr/local/bin/ssogate \
 && groupadd --system --gid 10001 ssogate \
 && useradd --system --uid 10001 --gid ssogate --home-dir /data --shell /usr/sbin/nologin ssogate \
 && install -d -o ssogate -g ssogate -m 0700 /data
# The only writable place: the SQLite file and the generated key. The root
# filesystem can be read-only (docker run --read-only).
VOLUME ["/data"]
USER ssogate:ssogate
EXPOSE 8080
# Liveness: the process answers (/_sso/healthz, src/features/portal/routes.ts).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.SSOGATE_PORT||8080)+'/_sso/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The gateway stops on SIGTERM within SSOGATE_SHUTDOWN_TIMEOUT_SECONDS
# (30 by default): give `docker stop -t` / stop_grace_period more than that.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/dist/main.js"]
