/**
 * The shapes of schemas/*.schema.json that code builds or reads, as TypeScript types for the validators of schemas/index.ts (a passing
 * `validateTokenResponse(x)` narrows `x` to `TokenResponse`). Every shape allows members beyond the document's, as its schema does: hence the index signatures.
 */
import type { DuringBlock, ResetDigits, WindowKind } from '../contracts/rate-limit-window.ts';

/** `2022-03-13T21:31:12.44`: no zone, 1 to 7 fractional digits (contracts/timestamps.ts). */
type ZonelessTimestamp = string;

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

/** One entry of an error body's `errors` (platform docs, Errors). */
interface ApiErrorObject {
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

/** Body shapes an error of the api origin may take (schemas/profile.schema.json `$defs/apiErrorBody`). */
export type ApiErrorBodyShape = 'errors-array' | 'rfc6750' | 'problem-json' | 'aspnet-validation' | 'empty' | 'text' | 'html';

/** Body shapes a refused token request may take (`$defs/tokenErrorBody`). */
export type TokenErrorBodyShape = 'oauth' | 'errors-array' | 'problem-json' | 'empty' | 'text' | 'html';

/**
 * A complete behaviour profile (schemas/profile.schema.json): one value for every choice the API document leaves open. A profile file may set only some options
 * (ProfileFile); the mock fills the rest from the profile it `extends`.
 */
export interface Profile {
  name: string;
  description: string;
  tokens: {
    badCredentialsStatus: 400 | 401 | 403;
    unheldScopeStatus: 400 | 401 | 403;
    errorBody: TokenErrorBodyShape;
    acceptJsonBody: boolean;
    mislabelledForm: 'refuse' | 'read-as-form';
    scopeSeparators: 'comma' | 'comma-or-space';
    expiresIn: 'lifetime' | 'countdown';
    reuse: 'fresh' | 'live-token';
    refreshGrant: boolean;
    tokenType: 'bearer' | 'Bearer';
    /** A period like `60d`. */
    lifetime: string;
    /** A rate like `15/10s`, or `0`. */
    requestLimit: string;
  };
  auth: {
    unauthenticatedStatus: 401 | 403;
    missingScopeStatus: 401 | 403 | 404;
    contentScopes: Array<'content:read' | 'content:write'>;
    usersScopes: Array<'users:read' | 'users:write'>;
  };
  errors: { body: ApiErrorBodyShape };
  query: {
    unknownParameter: 'refuse' | 'ignore';
    repeatedParameter: 'refuse' | 'first' | 'last';
    invalidValue: 'refuse' | 'ignore';
    invalidStatus: 400 | 422;
    limitDefault: number;
    limitMax: number;
    limitOutOfRange: 'refuse' | 'clamp';
  };
  filters: { dateFilters: 'platform' | 'none'; fromDay: 'inclusive' | 'exclusive' };
  pagination: {
    finalPage: 'absent' | 'null' | 'empty-string' | 'trailing-empty-page';
    self: 'with-query' | 'without-query';
    nextLink: 'repeat-query' | 'cursor-only';
    cursor: 'base64url' | 'letters';
    olderCursors: 'refuse' | 'valid-while-active';
    nextWithoutQuery: 'refuse' | 'accept';
    obsoleteStatus: 400 | 404 | 410;
    extraMembers: boolean;
  };
  timestamps: { fractionDigits: number; trimZeros: boolean; publishDate: 'like-created-at' | 'utc' | 'date' };
  logout: { request: 'empty-or-json' | 'json-object' | 'any'; response: '204' | '200-json' | '200-empty' };
  users: { type: 'users' | 'user'; attributes: 'platform' | 'minimal'; limit: 'platform' | 'unknown' };
  rateLimit: {
    rate: string;
    window: WindowKind;
    countsTokenRequests: boolean;
    retryAfter: 'seconds' | 'http-date';
    resetFractionDigits: ResetDigits;
    retryDuringBlock: DuringBlock;
  };
}

/** The groups of options of a profile (every member of Profile but its name and description). */
export type ProfileGroup = Exclude<keyof Profile, 'name' | 'description'>;

/** What `npm run profile` records beside the options it observed. */
interface ProfileObservation {
  target?: string;
  at?: string;
  /** Options (`group.option`) no probe could decide. */
  unknown?: string[];
  /** Per option (`group.option`): what was seen (status, headers, a redacted body excerpt). */
  evidence?: Record<string, unknown>;
}

/** A profile as written in a file: any options, the rest from `extends` (default strict). */
export type ProfileFile = {
  $schema?: string;
  name?: string;
  description?: string;
  extends?: 'strict' | 'platform' | 'lenient';
  observed?: ProfileObservation;
} & { [G in ProfileGroup]?: Partial<Profile[G]> };
