/**
 * The bench's arithmetic and its printed form, without I/O: percentiles, medians, targets and how
 * they read. Ratios, not absolute numbers, are what the targets judge: on a shared 2-core machine the
 * absolute figures drift between runs, while two things measured side by side in the same minute
 * drift together.
 */

/** One acceptance target of the bench, measured. */
export interface Target {
  /** What is compared, e.g. `mock ÷ bare node:http throughput`. */
  readonly name: string;
  /** The measured ratio; NaN when the figure could not be measured (then `error` says why). */
  readonly measured: number;
  /** The bound, e.g. 0.7. */
  readonly bound: number;
  /** `min`: measured must be ≥ bound; `max`: measured must be ≤ bound. */
  readonly kind: 'min' | 'max';
  /** The figures behind the ratio, for the reader. */
  readonly detail: string;
  /** Why the figure is missing or invalid (a child that did not start, non-2xx answers...). */
  readonly error?: string;
}

export function holds(target: Target): boolean {
  if (target.error !== undefined || !Number.isFinite(target.measured)) return false;
  return target.kind === 'min' ? target.measured >= target.bound : target.measured <= target.bound;
}

/** A target the bench could not measure: it counts as not holding, and says why. */
export function unmeasured(name: string, bound: number, kind: 'min' | 'max', error: string): Target {
  return { name, measured: Number.NaN, bound, kind, detail: '', error };
}

/** `PASS  mock ÷ bare node:http throughput ≥ 0.70: 0.83  (mock 4,210 req/s; bare 5,070 req/s)` */
export function formatTarget(target: Target): string {
  const verdict = target.error !== undefined ? 'ERROR' : holds(target) ? 'PASS' : 'FAIL';
  const bound = `${target.kind === 'min' ? '≥' : '≤'} ${formatRatio(target.bound)}`;
  if (target.error !== undefined) return `${verdict.padEnd(5)} ${target.name} ${bound}: not measured: ${target.error}`;
  return `${verdict.padEnd(5)} ${target.name} ${bound}: ${formatMeasured(target)}${target.detail ? `  (${target.detail})` : ''}`;
}

/** The measured ratio with enough digits that it never reads as the bound when it misses it (0.698, not 0.70). */
function formatMeasured(target: Target): string {
  const text = formatRatio(target.measured);
  if (holds(target) || Number(text) !== target.bound) return text;
  for (let digits = 3; digits <= 6; digits++) {
    const longer = target.measured.toFixed(digits);
    if (Number(longer) !== target.bound) return longer;
  }
  return text;
}

export function formatRatio(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** 12345.6 → `12,346` */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Milliseconds with the precision a loopback latency deserves: `0.412 ms`, `12.3 ms`. */
export function formatMs(ms: number): string {
  return `${ms < 1 ? ms.toFixed(3) : ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
}

/** 5_242_880 → `5.00 MB` (MB = 2^20 bytes, as V8's heap figures are counted). */
export function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '-' : '';
  return `${sign}${(Math.abs(bytes) / 1_048_576).toFixed(2)} MB`;
}

/**
 * The p-th percentile (0–100) of values sorted ascending, nearest-rank method: always one of the
 * samples, never an interpolation between two. NaN for no samples.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be from 0 to 100, got ${p}`);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Ascending copy as a typed array: numeric sort, not the string sort of Array#sort. */
export function sortedSamples(samples: readonly number[] | Float64Array): Float64Array {
  return Float64Array.from(samples).sort();
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The median of pick(a[i]) ÷ pick(b[i]) over rounds measured next to each other: a neighbour's job
 * slowing the machine for a few seconds then slows both sides of a pair, and one bad pair does not decide.
 */
export function pairedMedian<R>(a: readonly R[], b: readonly R[], pick: (r: R) => number): number {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) ratios.push(pick(a[i] as R) / pick(b[i] as R));
  return median(ratios);
}

/** The lines that end a run: every target, then one sentence on what the exit code says. */
export function summarise(targets: readonly Target[], enforced: boolean): { lines: string[]; failed: number } {
  const failed = targets.filter((t) => !holds(t)).length;
  const lines = targets.map(formatTarget);
  if (!enforced) {
    lines.push(
      `Quick mode: ${targets.length - failed} of ${targets.length} targets held, but targets are reported, not enforced (a few seconds per figure on a shared CI machine is too noisy to judge); run without --quick to enforce them.`,
    );
  } else if (failed === 0) {
    lines.push(`All ${targets.length} targets hold.`);
  } else {
    lines.push(`${failed} of ${targets.length} targets did not hold.`);
  }
  return { lines, failed };
}
