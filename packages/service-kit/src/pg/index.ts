export * from './pool';
export * from './migrate';
export * from './outbox';
export * from './processed-events';
export * from './idempotency';
export * from './service';
export * from './listen';
