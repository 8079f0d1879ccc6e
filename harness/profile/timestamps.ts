/**
 * The fractional seconds of the content items' timestamps (profile group `timestamps`), read off every
 * item the other probes were served: no request of its own.
 *
 * A service that drops trailing zeros shows its digits only where the time has them: the most digits
 * seen is then a floor, not the count written (a service that keeps milliseconds and writes 7 digits
 * trimmed shows at most 3). Only 7, the most a profile names, decides fractionDigits there.
 */
import type { Probe } from './session.ts';
import { fractionDigits } from './classify.ts';

const TIMESTAMPS = ['created-at', 'modified-at'] as const;
/** With fewer, a trimming service could show one count throughout by chance (one in ten per timestamp). */
const ENOUGH = 40;

/** publish-date's forms, as timestamps.publishDate names them. */
const PUBLISH_DATE_FORMS = [
  ['like-created-at', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?$/],
  ['utc', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
] as const;

/** How many of `values` there are of each, in ascending order, and that as text (`label` writes one count). */
function tally<T extends string | number>(values: readonly T[], label: (value: T, n: number) => string): { counts: Map<T, number>; text: string } {
  const counts = new Map<T, number>();
  for (const value of [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) counts.set(value, (counts.get(value) ?? 0) + 1);
  return { counts, text: [...counts].map(([value, n]) => label(value, n)).join(', ') };
}

export function decideTimestamps(p: Probe): void {
  const attributes = p.items.map((item) => (item.attributes ?? {}) as Record<string, unknown>);
  decidePublishDate(
    p,
    attributes.map((a) => a['publish-date']).filter((value) => typeof value === 'string'),
  );
  const strings = attributes.flatMap((a) => TIMESTAMPS.map((name) => a[name])).filter((value) => typeof value === 'string');
  const digits = strings.map(fractionDigits).filter((n) => n !== undefined);
  const { counts, text } = tally(digits, (d, n) => `${n} with ${d} digit(s)`);
  const seen = digits.length;
  const both = ['timestamps.trimZeros', 'timestamps.fractionDigits'] as const;
  if (seen < ENOUGH) return p.unknown(both, `only ${seen} timestamps were seen (${ENOUGH} decide)`);
  const most = Math.max(...counts.keys());
  if (counts.size === 1 && most >= 1 && most <= 7) {
    const basis = `all ${seen} timestamps have ${most} fractional digits`;
    p.decide('timestamps.trimZeros', false, basis);
    return p.decide('timestamps.fractionDigits', most, basis);
  }
  if (most > 7) return p.unknown(both, `timestamps have up to ${most} fractional digits, more than a profile names (${text})`);
  p.decide('timestamps.trimZeros', true, `the fractional digits vary: ${text}`);
  if (most === 7) return p.decide('timestamps.fractionDigits', 7, `trailing zeros are dropped, and up to 7 digits are written (${text})`);
  const why = `trailing zeros are dropped and at most ${most} digits were seen (${text}): a service writing more digits of times kept to ${most} digits looks the same`;
  p.unknown('timestamps.fractionDigits', why);
}

/** The one form every publish-date seen has; unknown when none was seen, or they differ, or none fits. */
function decidePublishDate(p: Probe, dates: readonly string[]): void {
  const forms = tally(
    dates.map((date) => PUBLISH_DATE_FORMS.find(([, pattern]) => pattern.test(date))?.[0] ?? 'other'),
    (form, n) => `${n} ${form}`,
  );
  const [only] = forms.counts.keys();
  if (only === undefined) p.unknown('timestamps.publishDate', 'no item with a publish-date was seen');
  else if (forms.counts.size === 1 && only !== 'other') p.decide('timestamps.publishDate', only, `all ${dates.length} publish-dates seen are written ${only}`);
  else p.unknown('timestamps.publishDate', `publish-dates of several or other forms: ${forms.text}`);
}
