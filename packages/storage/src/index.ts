export * from './config';
export * from './image';
export * from './object-store';
export { ObjectReadError, type ObjectPiece, type ObjectPieces } from './socket-read';
export * from './spool';
export * from './queue';
