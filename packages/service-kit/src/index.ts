export * from './config';
export * from './errors';
export * from './validate';
export * from './identity';
export * from './logger';
export * from './http';
export * from './lifecycle';
export * from './kafka';
