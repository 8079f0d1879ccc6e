/**
 * Periods as the API writes them: `1m`, `12h`, `1d` (X-Rate-Limit-Limit), as the mock's flags do (`--token-ttl 60d`, `--snapshot-ttl 2m`, `--rate 200/1m`).
 * k6-safe: load scripts import this file, so no Node or browser globals and no `u`-flag regexes.
 */

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

const PERIOD = /^(\d{1,9})(s|m|h|d)$/;

/** Seconds in a period like `1m`; `undefined` when the text is not such a period. */
export function parsePeriod(text: string): number | undefined {
  const match = PERIOD.exec(text.trim());
  const count = Number(match?.[1]);
  return match && count > 0 ? count * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] : undefined;
}

/** The shortest exact notation of a number of seconds: 60 → `1m`, 90 → `90s`, 86400 → `1d`. */
export function formatPeriod(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds <= 0) throw new RangeError(`not a period: ${seconds} s`);
  for (const unit of ['d', 'h', 'm'] as const) if (seconds % UNIT_SECONDS[unit] === 0) return `${seconds / UNIT_SECONDS[unit]}${unit}`;
  return `${seconds}s`;
}

export interface Rate {
  readonly requests: number;
  /** Window length in seconds. */
  readonly periodSeconds: number;
  /** The window as the API writes it in X-Rate-Limit-Limit, e.g. `1m`. */
  readonly period: string;
}

/** `200/1m` → { requests: 200, periodSeconds: 60, period: '1m' }; `0` → null (limiting off). */
export function parseRate(text: string): Rate | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '0') return null;
  const [, count, period = ''] = /^(\d{1,9})\/(.*)$/.exec(trimmed) ?? [];
  const requests = Number(count);
  const periodSeconds = parsePeriod(period);
  return requests > 0 && periodSeconds !== undefined ? { requests, periodSeconds, period } : undefined;
}
