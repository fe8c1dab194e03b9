export * from './events';
export * from './auth';
export * from './session';
