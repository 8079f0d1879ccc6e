/**
 * k6 has a `console` (its logger: log, info, warn, error, debug), but @types/k6 0.47 does not
 * declare it and load/ has no DOM or Node types. Declared here with the methods k6 v0.47 offers.
 */
declare const console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
};
