/** The API as code. Import from here; each module's header says which part of the document it holds. */
export * from './duration.ts';
export * from './endpoints.ts';
export * from './environments.ts';
export * from './lifecycle.ts';
export * from './limits.ts';
export * from './open-behaviours.ts';
export * from './rate-limit.ts';
export * from './rate-limit-judge.ts';
export * from './rate-limit-retry.ts';
export * from './rate-limit-rules.ts';
export * from './scopes.ts';
export * from './timestamps.ts';
