export * from './constants';
export * from './validation';
export * from './api';
export * from './ignored-fields';
export * from './game';
export * from './lolgram';
export * from './admin';
