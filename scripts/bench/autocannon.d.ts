// autocannon ships no types and @types/autocannon is not installed: the part of its programmatic API
// the bench uses (README, "API"), typed by hand.
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
  }
  interface Histogram {
    readonly average: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
  }
  interface Result {
    readonly requests: Histogram & { readonly total: number; readonly sent: number };
    readonly latency: Histogram;
    readonly throughput: Histogram & { readonly total: number };
    /** Seconds. */
    readonly duration: number;
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    readonly statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
  export type { Options, Result };
}
