export * from './connect';
export * from './outbox';
export * from './processed-events';
export * from './idempotency';
export * from './friendships';
export * from './projections';
export * from './service';
