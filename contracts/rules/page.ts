/**
 * What the judges of a list page share: the page read as the document's envelope (or nothing, when it is none: envelope.shape says so, and the other page rules
 * do not apply), and the request's URL read without `URL`. k6-safe.
 */
import { normalOrigin, parseQuery, splitUrl, type UrlParts } from '../url.ts';
import { type Exchange, isServed, type JudgeContext } from './exchange.ts';

export type Page = { readonly links: { readonly self: string; readonly next?: unknown }; readonly data: readonly unknown[] };

/** A served page of `list` (any list when absent) that is a list envelope; undefined for any other exchange. */
export function pageOf(exchange: Exchange, context: JudgeContext, list?: 'content' | 'users'): Page | undefined {
  if (exchange.list === undefined || (list !== undefined && exchange.list !== list) || !isServed(exchange)) return undefined;
  return context.validators.validateListEnvelope(exchange.body) ? (exchange.body as Page) : undefined;
}

/** An absolute http(s) URL's parts, with its origin as `URL` would write it; undefined for anything else. */
export function absolute(text: unknown): UrlParts | undefined {
  if (typeof text !== 'string' || !/^https?:\/\//i.test(text)) return undefined;
  const parts = splitUrl(text);
  return parts === undefined ? undefined : { ...parts, origin: normalOrigin(parts.origin), path: parts.path === '' ? '/' : parts.path };
}

/** Same origin and path: a trailing slash is not a different resource. */
export function sameResource(url: UrlParts, requested: UrlParts): boolean {
  const path = (u: UrlParts) => u.path.replace(/\/+$/, '');
  return url.origin === requested.origin && path(url) === path(requested);
}

/** The query's pairs, decoded and sorted: two queries that differ only in order are the same. */
export function sortedQuery(url: UrlParts): string {
  return parseQuery(url.query)
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join('&');
}

/** Every value of a query parameter of the request. */
export function queryValues(url: UrlParts, name: string): string[] {
  return parseQuery(url.query).flatMap(([key, value]) => (key === name ? [value] : []));
}

/** Items of a page whose problems a finding lists before it counts the rest. */
const ITEMS_SHOWN = 3;

export function listed(lines: readonly string[]): string {
  return lines.slice(0, ITEMS_SHOWN).join('\n') + (lines.length > ITEMS_SHOWN ? `\n… and ${lines.length - ITEMS_SHOWN} more` : '');
}

/** The distinct `type`s of the items other than `expected`. */
export function otherTypes(data: readonly unknown[], expected: string): unknown[] {
  return [...new Set(data.map((item) => (item as { type?: unknown }).type).filter((type) => type !== expected))];
}
