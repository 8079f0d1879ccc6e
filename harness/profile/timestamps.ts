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

export function decideTimestamps(p: Probe): void {
  decidePublishDate(p);
  const counts = new Map<number, number>();
  let seen = 0;
  for (const item of p.items) {
    const attributes = (item.attributes ?? {}) as Record<string, unknown>;
    for (const name of TIMESTAMPS) {
      const value = attributes[name];
      const digits = typeof value === 'string' ? fractionDigits(value) : undefined;
      if (digits === undefined) continue;
      seen++;
      counts.set(digits, (counts.get(digits) ?? 0) + 1);
    }
  }
  const tally = [...counts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([digits, n]) => `${n} with ${digits} digit(s)`)
    .join(', ');
  const unknown = (reason: string) => (['timestamps.trimZeros', 'timestamps.fractionDigits'] as const).forEach((option) => p.unknown(option, reason));
  if (seen < ENOUGH) return unknown(`only ${seen} timestamps were seen (${ENOUGH} decide)`);
  const most = Math.max(...counts.keys());
  if (counts.size === 1 && most >= 1 && most <= 7) {
    const basis = `all ${seen} timestamps have ${most} fractional digits`;
    p.decide('timestamps.trimZeros', false, basis);
    return p.decide('timestamps.fractionDigits', most, basis);
  }
  if (most > 7) return unknown(`timestamps have up to ${most} fractional digits, more than a profile names (${tally})`);
  p.decide('timestamps.trimZeros', true, `the fractional digits vary: ${tally}`);
  if (most === 7) p.decide('timestamps.fractionDigits', 7, `trailing zeros are dropped, and up to 7 digits are written (${tally})`);
  else {
    p.unknown(
      'timestamps.fractionDigits',
      `trailing zeros are dropped and at most ${most} digits were seen (${tally}): a service writing more digits of times kept to ${most} digits looks the same`,
    );
  }
}

/** The one form every publish-date seen has; unknown when none was seen, or they differ, or none fits. */
function decidePublishDate(p: Probe): void {
  const forms = new Map<string, number>();
  for (const item of p.items) {
    const value = ((item.attributes ?? {}) as Record<string, unknown>)['publish-date'];
    if (typeof value !== 'string') continue;
    const form = PUBLISH_DATE_FORMS.find(([, pattern]) => pattern.test(value))?.[0] ?? 'other';
    forms.set(form, (forms.get(form) ?? 0) + 1);
  }
  const [only] = forms.keys();
  if (forms.size === 1 && only !== undefined && only !== 'other') {
    p.decide('timestamps.publishDate', only, `all ${forms.get(only)} publish-dates seen are written ${only}`);
  } else if (forms.size === 0) p.unknown('timestamps.publishDate', 'no item with a publish-date was seen');
  else p.unknown('timestamps.publishDate', `publish-dates of several or other forms: ${[...forms].map(([f, n]) => `${n} ${f}`).join(', ')}`);
}
