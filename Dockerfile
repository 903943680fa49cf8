# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY shared/package.json shared/
COPY backend/package.json backend/
COPY frontend/package.json frontend/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY shared shared
COPY backend backend
COPY frontend frontend
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# Two glibc malloc arenas, as `npm start` sets: memory freed after an image upload goes back to the
# system instead of staying in an arena per thread.
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data MALLOC_ARENA_MAX=2
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
WORKDIR /app/backend
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node itself is the main process, so that SIGTERM from `docker stop` reaches the graceful shutdown.
CMD ["node", "--max-semi-space-size=64", "--no-allocation-site-pretenuring", "--import", "tsx", "src/main.ts"]
