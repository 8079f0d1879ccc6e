/**
 * Timestamps of content attributes: "timestamp without time zone, ISO 8601 style with fractional seconds" (document). The real service writes 1 to 7 fractional
 * digits, e.g. `2022-03-13T21:31:12.44` (platform docs). schemas/content-attributes.schema.json holds the same pattern (a test keeps them equal).
 */

export const ZONELESS_TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{1,7}$';
const ZONELESS = new RegExp(ZONELESS_TIMESTAMP_PATTERN);

/** Milliseconds since the epoch of a zone-less timestamp, read as UTC; NaN when it is not one. */
export function parseZonelessTimestamp(text: string): number {
  if (!ZONELESS.test(text)) return Number.NaN;
  // Date.parse takes at most millisecond precision reliably everywhere (k6 included): cut to 3 digits.
  const dot = text.indexOf('.');
  const fraction = text.slice(dot + 1, dot + 4).padEnd(3, '0');
  return Date.parse(`${text.slice(0, dot)}.${fraction}Z`);
}

/** A zone-less timestamp with `digits` fractional digits (1 to 7) from epoch milliseconds. */
export function formatZonelessTimestamp(ms: number, digits = 3): string {
  const iso = new Date(ms).toISOString(); // 2022-03-13T21:31:12.440Z
  const millis = iso.slice(20, 23);
  return `${iso.slice(0, 19)}.${digits <= 3 ? millis.slice(0, digits) : millis.padEnd(digits, '0')}`;
}

/**
 * Whether a timestamp's date and time fields name a moment of the calendar: the date reads back unchanged (2020-02-30 does not), hours below 24, minutes below
 * 60, seconds to 60 (a leap second). The pattern alone lets every such field through.
 */
export function namesCalendarMoment(text: string): boolean {
  const fields = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
  return fields !== null && !Number.isNaN(parseDate(fields[1] ?? '')) && Number(fields[2]) <= 23 && Number(fields[3]) <= 59 && Number(fields[4]) <= 60;
}

/** Milliseconds of 00:00 UTC of a `yyyy-mm-dd` date that exists on the calendar; NaN otherwise. */
export function parseDate(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return Number.NaN;
  const ms = Date.parse(`${text}T00:00:00Z`);
  // Date.parse rolls 2021-02-30 over to March in some engines: insist on a round trip.
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text ? Number.NaN : ms;
}
