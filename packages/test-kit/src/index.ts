export * from './infra';
export * from './helpers';
export * from './buckets';
export * from './forms';
export * from './service-env';
export * from './identity';
export { infraEnv } from './containers';
export * from './topic';
export * from './metrics';
