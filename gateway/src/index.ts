// @wayfarer/gateway's public entry (package.json `exports`): what bench/, e2e/ and deploy/ may
// import. The rest of src/ is internal: import it from here or add it here (eslint.config.js).
export { buildApp, type GatewayDeps } from './app';
export { CHAT_PROBE_INTERVAL_MS } from './chat';
export {
  GATEWAY_METRICS_PORT_OFFSET,
  GatewayEnv,
  loadGatewayConfig,
  metricsPortOf,
  type GatewayConfig,
} from './config';
export { connectRedis } from './redis';
export { PROXY_ROUTES, type ProxyRoute } from './routes';
export { registerSessionVerifier, SESSION_VERIFY_OPTIONS } from './session';
