export * from './config';
export * from './image';
export * from './object-store';
export * from './spool';
export * from './queue';
