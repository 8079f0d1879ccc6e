/**
 * Query strings and absolute URLs without `URL` or `URLSearchParams`, which k6 v0.47 does not define
 * (docs/load.md, "The k6 runtime"). Just enough for the load scripts: build a request URL, read `next` out of
 * `links.next`, set `next` on the first request of a walk.
 */

import { parseQuery, splitUrl } from '../../contracts/url.ts';

export { parseQuery, splitUrl } from '../../contracts/url.ts';

type QueryValue = string | number | boolean | undefined;
/** Parameters in order; `undefined` values are left out. */
export type QueryParams = Readonly<Record<string, QueryValue>> | ReadonlyArray<readonly [string, QueryValue]>;

/** `limit=5&filter%5Bstart_date%5D=2024-01-01`: each name and value percent-encoded, no leading `?`. */
export function encodeQuery(params: QueryParams): string {
  const pairs: ReadonlyArray<readonly [string, QueryValue]> = isPairList(params) ? params : Object.keys(params).map((name) => [name, params[name]] as const);
  const parts: string[] = [];
  for (const [name, value] of pairs) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}

function isPairList(params: QueryParams): params is ReadonlyArray<readonly [string, QueryValue]> {
  return Array.isArray(params);
}

/** Whether a text is an absolute http(s) URL with a host. */
export function isAbsoluteUrl(url: string): boolean {
  return splitUrl(url) !== undefined;
}

/** The first value of a query parameter of a URL (absolute or a bare query string); `undefined` when absent. */
export function queryParam(url: string, name: string): string | undefined {
  const parts = splitUrl(url);
  const query = parts ? parts.query : url.indexOf('?') >= 0 ? url.slice(url.indexOf('?') + 1) : url;
  for (const [key, value] of parseQuery(query)) if (key === name) return value;
  return undefined;
}

/** The URL with `name` set to `value`: replaces every occurrence in place, or appends it. Other parameters keep their order. */
export function withQueryParam(url: string, name: string, value: string): string {
  const parts = splitUrl(url);
  if (!parts) throw new Error(`not an absolute http(s) URL: ${url}`);
  let replaced = false;
  const pairs: Array<[string, string]> = [];
  for (const [key, current] of parseQuery(parts.query)) {
    if (key !== name) pairs.push([key, current]);
    else if (!replaced) {
      pairs.push([key, value]);
      replaced = true;
    }
  }
  if (!replaced) pairs.push([name, value]);
  return `${parts.origin}${parts.path}?${encodeQuery(pairs)}${parts.fragment ? `#${parts.fragment}` : ''}`;
}

/** `base` (an origin, maybe with a path and a trailing slash) + `path` + an optional query. */
export function joinUrl(base: string, path: string, params?: QueryParams): string {
  const left = base.endsWith('/') ? base.slice(0, -1) : base;
  const right = path.startsWith('/') ? path : `/${path}`;
  const query = params ? encodeQuery(params) : '';
  return `${left}${right}${query ? `?${query}` : ''}`;
}
