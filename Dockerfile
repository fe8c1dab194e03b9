# One image recipe for every app of the monorepo (the gateway and each service), compiled to
# JavaScript and run by `node` alone, as the non-root `node` user:
#   docker build --build-arg WORKSPACE=services/auth -t wayfarer/auth:1.0.0 .
#   docker build --build-arg WORKSPACE=gateway       -t wayfarer/gateway:1.0.0 .  (with the frontend)
# docker-compose.yml builds one image per app this way; a later service needs no change here.
#
# NODE_IMAGE is the base of both stages: any Debian-based image with Node 24 and npm at
# /usr/local/bin and a `node` user with uid 1000, as the official node:*-slim images are.
# Where Docker Hub is out of reach, deploy/images/base.sh makes one (the compose test does).
#
# The build stage installs the whole workspace once (`npm ci`, dev dependencies included: the
# compilers) and compiles every app (scripts/build/app.ts: an esbuild bundle per app with the
# workspace packages inlined, its npm packages pruned to what the bundle imports, and the
# frontend for the gateway). Those layers do not depend on WORKSPACE, so building the apps one
# after the other does that work once. The runtime stage is the base plus one app's folder.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---------------------------------------------------------------- npm manifests only
# package.json files and the lockfile, nothing else: the install layer below is reused until
# one of them changes, whatever else did
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete \
 && find . -depth -type d -empty -delete

# ---------------------------------------------------------------- build (every app)
FROM ${NODE_IMAGE} AS build
# only where npm's downloads pass a TLS-inspecting proxy: its CA bundle, a path inside the build
# (podman build -v /etc/ssl/certs/ca-certificates.crt:/run/host-ca.crt:ro
#  --build-arg NODE_EXTRA_CA_CERTS=/run/host-ca.crt); an ARG is in RUN's env, never in the image
ARG NODE_EXTRA_CA_CERTS
WORKDIR /src
COPY --from=manifests /src ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund --loglevel=error
COPY . .
RUN npx tsx scripts/build/app.ts --out /out

# ---------------------------------------------------------------- runtime (one app)
# Everything up to ARG WORKSPACE is the same for every app: one set of layers, built once;
# each app's image then adds its check and its folder (two layers).
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0
# /keys: mount point of the session key dir (docker-compose.yml); owned by node so that a
# fresh named volume mounted there is writable
RUN mkdir -p /keys && chown node:node /keys
# /app is owned by root, and so is what COPY puts there: the app cannot change its own code
WORKDIR /app
USER node
# ready, not only alive: GET /readyz on $PORT (the app's default port when unset)
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=12 \
  CMD ["node", "/app/healthcheck.js"]
# the tracing preload first (a no-op unless OTEL_EXPORTER_OTLP_ENDPOINT is set), then the app;
# node is PID 1 (no npm or shell in between), so `docker stop`'s SIGTERM reaches the app, which
# drains and exits
CMD ["node", "--enable-source-maps", "--import", "./telemetry.js", "main.js"]
ARG WORKSPACE
RUN test -n "${WORKSPACE}" || { echo "build with --build-arg WORKSPACE=<folder, e.g. services/auth>" >&2; exit 1; }
COPY --from=build /out/${WORKSPACE} /app
