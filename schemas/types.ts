/**
 * The shapes of schemas/*.schema.json as TypeScript types, for the validators of schemas/index.ts
 * (a passing `validateContentItem(x)` narrows `x` to `ContentItem`). Every shape allows members
 * beyond the ones the document names, as its schema does, hence the index signatures.
 */

/** `2022-03-13T21:31:12.44`: no zone, 1 to 7 fractional digits (contracts/timestamps.ts). */
export type ZonelessTimestamp = string;

/** Attributes of a content item (document, Content item attributes); names use hyphens. */
export interface ContentAttributes {
  'content-type': string;
  'external-id': string;
  title: string;
  summary: string;
  /** Empty, or starting with a URL scheme. */
  url: string;
  format: string;
  'is-obsolete': boolean;
  /** Empty (no image), or starting with a URL scheme. */
  'image-url': string;
  language: string;
  duration: number;
  'duration-type': string;
  provider: string;
  'is-internal': boolean;
  owner: string;
  'learning-minutes': number;
  'created-at': ZonelessTimestamp;
  'modified-at': ZonelessTimestamp;
  'publish-date': ZonelessTimestamp | null;
  'platform-url': string;
  /** The real service sends more (`degreed-url`, `visibility`). */
  [attribute: string]: unknown;
}

/** A resource object (document, Resource object). */
export interface ResourceObject<Type extends string = string, Attributes extends object = Record<string, unknown>> {
  type: Type;
  id: string;
  attributes: Attributes;
  [member: string]: unknown;
}

export type ContentItem = ResourceObject<'content', ContentAttributes>;

/** Users' attributes are not shown by the document, and real data mixes types: nothing is promised. */
export type UserAttributes = Record<string, unknown>;

export type UserItem = ResourceObject<'users', UserAttributes>;

export interface ListLinks {
  /** Absolute http(s) URL of the current request, with or without its query. */
  self: string;
  /** Absolute http(s) URL of the next page; absent, null or "" on the final page. */
  next?: string | null;
  [member: string]: unknown;
}

/** Body of a list response (document, Envelope of a list response). */
export interface ListEnvelope<T = unknown> {
  links: ListLinks;
  data: T[];
  [member: string]: unknown;
}

export type ContentList = ListEnvelope<ContentItem>;
export type UsersList = ListEnvelope<UserItem>;

/** Response of the token endpoint (document, Access token response). */
export interface TokenResponse {
  access_token: string;
  /** `bearer`, in any letter case. */
  token_type: string;
  /** Positive integer, seconds. */
  expires_in: number;
  refresh_token: string;
  [member: string]: unknown;
}

/** One entry of an error body's `errors` (reference notes, Errors). */
export interface ApiErrorObject {
  id?: string;
  code?: string;
  /** A number in the real service's fixtures, a numeric string in JSON:API. */
  status: number | string;
  /** At least one of `title` and `detail` is present. */
  title?: string;
  detail?: string;
  source?: Record<string, unknown>;
  [member: string]: unknown;
}

export interface ErrorBody {
  /** Never empty. */
  errors: ApiErrorObject[];
  [member: string]: unknown;
}

/** The X-Rate-Limit-* headers in lower case, as Playwright's `response.headers()` gives them. */
export interface RateLimitHeaderValues {
  /** A period like `1m`, `12h`, `1d`. */
  'x-rate-limit-limit': string;
  /** A non-negative integer. */
  'x-rate-limit-remaining': string;
  /** ISO 8601 UTC, any number of fractional digits. */
  'x-rate-limit-reset': string;
  [header: string]: unknown;
}
