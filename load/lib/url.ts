/** Request URLs without `URL` or `URLSearchParams`, which k6 v0.47 lacks; reading a URL is contracts/url.ts's and contracts/pagination.ts's. */

/** Parameters in order; `undefined` values are left out. */
export type QueryParams = Readonly<Record<string, string | number | boolean | undefined>>;

/** `limit=5&filter%5Bstart_date%5D=2024-01-01`: each name and value percent-encoded, no leading `?`. */
export function encodeQuery(params: QueryParams): string {
  return Object.keys(params)
    .filter((name) => params[name] !== undefined)
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(String(params[name]))}`)
    .join('&');
}

/** `base` (an origin, maybe with a path and a trailing slash) + `path` + an optional query. */
export function joinUrl(base: string, path: string, params?: QueryParams): string {
  const query = params ? encodeQuery(params) : '';
  return `${base.replace(/\/$/, '')}/${path.replace(/^\//, '')}${query ? `?${query}` : ''}`;
}
