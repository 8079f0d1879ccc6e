/** k6's logger, which @types/k6 0.47 does not declare (load/ has no DOM or Node types). */
declare const console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
};
