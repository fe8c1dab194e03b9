export * from './connect';
export * from './outbox';
export * from './idempotent';
