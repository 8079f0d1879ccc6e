/**
 * How the mock writes its data's timestamps: zone-less ISO 8601 with the profile's fractional digits (timestamps.fractionDigits), trailing zeros kept or
 * dropped (timestamps.trimZeros: .NET's `FFFFFFF`, no dot for a whole second, `2022-03-13T21:31:12`). The document shows only "with fractional seconds".
 */
import { formatZonelessTimestamp } from '../../contracts/timestamps.ts';

export type TimestampFormat = (ms: number) => string;

/** How publish-date is written (timestamps.publishDate): the document says only "string timestamp"; `utc` and `date` are the other legal forms. */
export function publishDateFormat(o: { readonly fractionDigits: number; readonly trimZeros: boolean; readonly publishDate: string }): TimestampFormat {
  if (o.publishDate === 'utc') return (ms) => new Date(ms).toISOString();
  if (o.publishDate === 'date') return (ms) => new Date(ms).toISOString().slice(0, 10);
  return timestampFormat(o);
}

export function timestampFormat(o: { readonly fractionDigits: number; readonly trimZeros: boolean }): TimestampFormat {
  const digits = o.fractionDigits;
  if (!o.trimZeros) return (ms) => formatZonelessTimestamp(ms, digits);
  return (ms) => formatZonelessTimestamp(ms, digits).replace(/0+$/, '').replace(/\.$/, '');
}
