export * from './pool';
export * from './migrate';
export * from './outbox';
export * from './idempotent';
export * from './idempotency';
export * from './service';
export * from './listen';
