export * from './infra';
export * from './helpers';
export { infraEnv } from './containers';
