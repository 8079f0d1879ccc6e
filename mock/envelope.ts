/**
 * The list envelope (document, Envelope of a list response): `links.self`, `links.next` and `data`.
 * The document leaves open whether self carries the query (pagination.self), whether next repeats the
 * first request's query or carries only the cursor (pagination.nextLink), what next is on the final
 * page (pagination.finalPage) and whether more members come (pagination.extraMembers).
 */
import type { Profile } from '../schemas/types.ts';
import { formatQuery } from './query.ts';

/** links.next of a page: a cursor, or the final page (written in the profile's form). */
export type NextLink = { readonly cursor: string } | 'final';

export interface EnvelopeInput {
  /** `{baseUrl}{path}` of the list. */
  readonly base: string;
  /** The request's query string, as received. */
  readonly search: string;
  /** The first request's query (without next), for a links.next that repeats it. */
  readonly pairs: ReadonlyArray<readonly [string, string]>;
  readonly next: NextLink;
  /** The page's items, comma-separated. */
  readonly data: Buffer;
}

const CLOSE = Buffer.from(']}');

export class Envelope {
  readonly #withQuery: boolean;
  readonly #repeatQuery: boolean;
  /** The links.next member of the final page, as JSON text after `"self":…` ('' for none). */
  readonly #finalNext: string;
  readonly #close: Buffer;

  constructor(profile: Profile['pagination']) {
    this.#withQuery = profile.self === 'with-query';
    this.#repeatQuery = profile.nextLink === 'repeat-query';
    this.#finalNext = profile.finalPage === 'null' ? ',"next":null' : profile.finalPage === 'empty-string' ? ',"next":""' : '';
    this.#close = profile.extraMembers ? Buffer.from('],"meta":{"mock":true}}') : CLOSE;
  }

  /** Three chunks, not one string: the page's bytes are written as cached, never copied or re-encoded. */
  render(o: EnvelopeInput): readonly Buffer[] {
    const self = this.#withQuery && o.search !== '' ? `${o.base}?${o.search}` : o.base;
    let next = this.#finalNext;
    if (o.next !== 'final') {
      const rest = this.#repeatQuery ? formatQuery(o.pairs) : '';
      next = `,"next":${JSON.stringify(`${o.base}?${rest}${rest ? '&' : ''}next=${encodeURIComponent(o.next.cursor)}`)}`;
    }
    return [Buffer.from(`{"links":{"self":${JSON.stringify(self)}${next}},"data":[`), o.data, this.#close];
  }
}
