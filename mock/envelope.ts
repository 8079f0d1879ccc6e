/**
 * The list envelope (document, Envelope of a list response): `links.self`, `links.next`, `data`. Left open, so the profile's: whether self carries the query
 * (pagination.self), next repeats the query or carries only the cursor (nextLink), next on the final page (finalPage), more members (extraMembers).
 */
import type { Profile } from '../schemas/types.ts';
import { formatQuery } from './query.ts';

/** links.next of a page: a cursor, or the final page (written in the profile's form). */
export type NextLink = { readonly cursor: string } | 'final';

export interface EnvelopeInput {
  /** Origin of the api and the list's path: `{baseUrl}{path}` is the list. */
  readonly baseUrl: string;
  readonly path: string;
  /** The request's query string, as received. */
  readonly search: string;
  /** The first request's query (without next), for a links.next that repeats it. */
  readonly pairs: ReadonlyArray<readonly [string, string]>;
  readonly next: NextLink;
  /** The page's items, comma-separated, and the envelope's `end` after them. */
  readonly data: Buffer;
}

export class Envelope {
  readonly #withQuery: boolean;
  readonly #repeatQuery: boolean;
  /** The links.next member of the final page, as JSON text after `"self":…` ('' for none). */
  readonly #finalNext: string;
  /** What follows the items: `]}`, or more members first (pagination.extraMembers). The page reader writes it after a page's items. */
  readonly end: string;
  #last: Links | undefined;

  constructor(profile: Profile['pagination']) {
    this.#withQuery = profile.self === 'with-query';
    this.#repeatQuery = profile.nextLink === 'repeat-query';
    this.#finalNext = profile.finalPage === 'null' ? ',"next":null' : profile.finalPage === 'empty-string' ? ',"next":""' : '';
    this.end = profile.extraMembers ? '],"meta":{"mock":true}}' : ']}';
  }

  /** Two chunks: the links as text, which node joins to the response head, then the page's bytes as read, never copied or re-encoded. */
  render(o: EnvelopeInput): readonly [string, Buffer] {
    const links = this.#links(o);
    // The cursor goes into the JSON text as it is: encodeURIComponent leaves nothing JSON would escape.
    const next = o.next === 'final' ? this.#finalNext : `${links.next}${encodeURIComponent(o.next.cursor)}"`;
    return [`${links.self}${next}},"data":[`, o.data];
  }

  /** The links' text up to the cursor, kept for the last list, query and pairs: a load test asks for the same page again and again, only its cursor differs. */
  #links(o: EnvelopeInput): Links {
    const last = this.#last;
    // Compared part by part: the two strings are the same each time, where the list's URL would be built anew.
    if (last !== undefined && last.baseUrl === o.baseUrl && last.path === o.path && last.search === o.search && samePairs(last.pairs, o.pairs)) return last;
    const { baseUrl, path, search, pairs } = o;
    const base = `${baseUrl}${path}`;
    const self = this.#withQuery && search !== '' ? `${base}?${search}` : base;
    const rest = this.#repeatQuery ? formatQuery(pairs) : '';
    const next = JSON.stringify(`${base}?${rest}${rest ? '&' : ''}next=`);
    this.#last = { baseUrl, path, search, pairs, self: `{"links":{"self":${JSON.stringify(self)}`, next: `,"next":${next.slice(0, -1)}` };
    return this.#last;
  }
}

interface Links extends Pick<EnvelopeInput, 'baseUrl' | 'path' | 'search' | 'pairs'> {
  /** `{"links":{"self":"…"` */
  readonly self: string;
  /** `,"next":"…next=`: the cursor and the closing quote follow. */
  readonly next: string;
}

function samePairs(a: EnvelopeInput['pairs'], b: EnvelopeInput['pairs']): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]?.[0] !== b[i]?.[0] || a[i]?.[1] !== b[i]?.[1]) return false;
  return true;
}
