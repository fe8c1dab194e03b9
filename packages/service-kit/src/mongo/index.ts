export * from './connect';
export * from './outbox';
export * from './idempotent';
export * from './idempotency';
export * from './friendships';
export * from './projections';
export * from './service';
