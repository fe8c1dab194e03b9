export * from './infra';
export * from './helpers';
export * from './buckets';
export * from './forms';
export { infraEnv } from './containers';
