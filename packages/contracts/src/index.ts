export * from './events';
export * from './auth';
export * from './session';
export * from './trips';
export * from './social';
export * from './journal';
export * from './places';
export * from './bodies';
