/** k6's logger, which @types/k6 0.47 does not declare (load/ has no DOM or Node types). */
declare const console: Record<'log' | 'info' | 'warn' | 'error' | 'debug', (...data: unknown[]) => void>;
