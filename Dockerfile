# One image recipe for every Node workspace of the monorepo:
#   docker build --build-arg WORKSPACE=services/auth -t wayfarer/auth .
#   docker build --build-arg WORKSPACE=gateway       -t wayfarer/gateway .   (also builds the frontend)
# docker-compose.yml builds one image per app service this way. .dockerignore keeps
# node_modules, .data, dist and .git out of the context.
ARG NODE_IMAGE=node:24-slim

# ---------------------------------------------------------------- build
FROM ${NODE_IMAGE} AS build
ARG WORKSPACE
RUN test -n "${WORKSPACE}" || { echo "build with --build-arg WORKSPACE=<folder, e.g. services/auth>" >&2; exit 1; }
WORKDIR /app
COPY . .
RUN test -f "${WORKSPACE}/package.json" || { echo "no workspace at ${WORKSPACE}" >&2; exit 1; }
RUN npm ci --no-audit --no-fund
# the gateway serves the built frontend
RUN if [ "${WORKSPACE}" = "gateway" ]; then npm run build --workspace frontend; fi

# ---------------------------------------------------------------- runtime
FROM ${NODE_IMAGE} AS runtime
ARG WORKSPACE
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PATH=/app/node_modules/.bin:$PATH
COPY --from=build --chown=node:node /app /app
# /keys: mount point of the dev session key pair (docker-compose.yml); owned by node so that a
# fresh named volume mounted there is writable
RUN mkdir -p /keys && chown node:node /keys
USER node
WORKDIR /app/${WORKSPACE}
# Same as `npx tsx src/main.ts` (tsx is a root devDependency), without npm in between, so the
# SIGTERM of `docker stop` reaches tsx, which forwards it to the service for a clean shutdown.
CMD ["tsx", "src/main.ts"]
