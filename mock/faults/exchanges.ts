/** Faults at the `exchange` seam: a request changed before its endpoint reads it, or a reply after (its JSON parsed, changed, rewritten). Slow: only here. */
import { BoundedMap } from '../../util/bounded-map.ts';
import type { EndpointId } from '../../contracts/endpoints.ts';
import { snapshotObsolete } from '../../contracts/lifecycle.ts';
import { SNAPSHOT_TTL_SECONDS } from '../../contracts/limits.ts';
import { nextValue } from '../../contracts/pagination.ts';
import { formatZonelessTimestamp, parseZonelessTimestamp } from '../../contracts/timestamps.ts';
import { apiErrors } from '../error-bodies.ts';
import { bodyText, Replies } from '../http.ts';
import type { MockSeams, Reply, RouteHandler } from '../seams.ts';
import type { RuleId } from '../../contracts/rules/index.ts';
import { type Fault, fault, withHeader, withoutHeader } from './fault.ts';

type Json = Record<string, unknown>;

/** A reply whose 200 JSON body `change` edits in place. */
function editJson(reply: Reply, change: (body: Json) => void): Reply {
  if (reply.status !== 200) return reply;
  const body = JSON.parse(bodyText(reply.body)) as Json;
  change(body);
  const out = JSON.stringify(body);
  return { status: reply.status, headers: withHeader(reply.headers, 'Content-Length', String(Buffer.byteLength(out))), body: out };
}

function items(body: Json): Json[] {
  return Array.isArray(body.data) ? (body.data as Json[]) : [];
}

function attributesOf(body: Json): Json[] {
  return items(body).map((i) => i.attributes as Json);
}

function links(body: Json): Json {
  return (body.links ?? {}) as Json;
}

/** A seam that wraps the handlers of `endpoints` with `wrap`, leaving the others. */
function on(endpoints: readonly EndpointId[], wrap: (inner: RouteHandler) => RouteHandler): MockSeams {
  return { exchange: (endpoint, inner) => (endpoints.includes(endpoint) ? wrap(inner) : inner) };
}

/** A token request's form body with `change` applied to its fields (other bodies pass unchanged). */
function formRequest(change: (form: URLSearchParams) => void): MockSeams {
  return on(['token'], (inner) => (request) => {
    if (!/^application\/x-www-form-urlencoded/i.test(request.contentType ?? '')) return inner(request);
    const form = new URLSearchParams(request.body.toString('utf8'));
    change(form);
    return inner({ ...request, body: Buffer.from(form.toString()) });
  });
}

const LISTS: readonly EndpointId[] = ['listContent', 'listUsers'];

/** The next value in links.next of a 200 list reply; undefined on the final page or another reply. */
function nextOfReply(reply: Reply): string | undefined {
  if (reply.status !== 200) return undefined;
  try {
    const next = links(JSON.parse(bodyText(reply.body)) as Json).next;
    return typeof next === 'string' ? nextValue(next) : undefined;
  } catch {
    return undefined;
  }
}

/** Walks a fault remembers something of: bounded, oldest forgotten first (load tests open thousands). */
const MAX_REMEMBERED_WALKS = 4096;

/** A fault that edits each 200 JSON reply of `endpoints`. */
function editing(rule: RuleId, breaks: string, endpoints: readonly EndpointId[], change: (body: Json) => void): Fault {
  return fault(rule, breaks, () => on(endpoints, (inner) => (request) => editJson(inner(request), change)));
}

/** An edit that makes `attribute` of every fourth content item negative (the first of a page among them). */
function negativeIn(attribute: string): (body: Json) => void {
  return (b) => attributesOf(b).forEach((a, n) => n % 4 === 0 && (a[attribute] = -Math.max(1, Number(a[attribute]))));
}

export const EXCHANGE_FAULTS = {
  'token-unsupported-grant-accepted': fault('token.grant-type', 'a grant_type other than client_credentials gets a token', () =>
    formRequest((form) => {
      const grant = form.get('grant_type');
      if (grant !== null && grant !== 'client_credentials' && grant !== 'refresh_token') form.set('grant_type', 'client_credentials');
    }),
  ),
  // A comma becomes part of one scope name, which no key holds.
  'scope-list-refused': fault('token.scope-list', 'several scopes requested as a comma-delimited list are refused', () =>
    formRequest((form) => {
      const scope = form.get('scope');
      if (scope !== null && scope.includes(',')) form.set('scope', scope.replaceAll(',', ';'));
    }),
  ),
  'token-expires-in-string': editing('token.response', 'expires_in is a string, not an integer', ['token'], (b) => void (b.expires_in = String(b.expires_in))),
  'token-type-not-bearer': editing('token.response', 'token_type is not bearer', ['token'], (b) => void (b.token_type = 'mac')),
  'token-refresh-token-missing': editing('token.issued', 'the token response carries no refresh_token', ['token'], (b) => void delete b.refresh_token),
  'expires-in-zero': editing('lifetime.expires-in', 'expires_in is 0: a token said to live no second', ['token'], (b) => void (b.expires_in = 0)),
  'expires-in-above-lifetime': editing(
    'lifetime.expires-in-bound',
    'expires_in is a day longer than the configured lifetime',
    ['token'],
    (b) => void (b.expires_in = Number(b.expires_in) + 86_400),
  ),
  'attribute-wrong-type': editing('content.attributes', 'is-obsolete is a string, not a boolean', ['listContent'], (b) =>
    attributesOf(b).forEach((a) => (a['is-obsolete'] = String(a['is-obsolete']))),
  ),
  'attribute-missing': editing('content.attributes', 'content items lack summary', ['listContent'], (b) => attributesOf(b).forEach((a) => delete a.summary)),
  'content-negative-duration': editing('content.attributes', 'a quarter of the items carry a negative duration', ['listContent'], negativeIn('duration')),
  'content-negative-learning-minutes': editing(
    'content.attributes',
    'a quarter of the items carry negative learning-minutes',
    ['listContent'],
    negativeIn('learning-minutes'),
  ),
  'publish-date-empty-string': editing('content.attributes', 'publish-date is "" where it is not set, not null', ['listContent'], (b) =>
    attributesOf(b).forEach((a) => (a['publish-date'] ??= '')),
  ),
  'timestamp-with-zone': editing('content.timestamps', 'created-at carries a time zone', ['listContent'], (b) =>
    attributesOf(b).forEach((a) => (a['created-at'] = `${String(a['created-at'])}Z`)),
  ),
  'type-wrong': editing('content.type', 'content items have type contents', ['listContent'], (b) => items(b).forEach((i) => (i.type = 'contents'))),
  'links-self-missing': editing('envelope.shape', 'links has no self', LISTS, (b) => void delete links(b).self),
  'links-self-other-path': editing(
    'envelope.self',
    'links.self names another path (/api/v1/…)',
    LISTS,
    (b) => void (links(b).self = String(links(b).self).replace('/api/v2/', '/api/v1/')),
  ),
  'next-link-other-origin': editing('envelope.next-link', 'links.next points at another origin', LISTS, (b) => {
    const next = links(b).next;
    if (typeof next === 'string' && next !== '') links(b).next = next.replace(/^https?:\/\/[^/]+/, 'http://elsewhere.example.invalid');
  }),
  'item-id-empty': editing('envelope.shape', 'a quarter of the items of both lists have the id ""', LISTS, (b) =>
    items(b).forEach((i, n) => n % 4 === 0 && (i.id = '')),
  ),
  'users-item-id-missing': editing('users.list', 'users are resource objects without an id', ['listUsers'], (b) => items(b).forEach((i) => delete i.id)),
  'rate-headers-missing-users': fault('rate.headers', 'responses of the users endpoint lack the X-Rate-Limit-* headers', () =>
    on(['listUsers'], (inner) => (request) => {
      const reply = inner(request);
      return { ...reply, headers: ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'].reduce(withoutHeader, reply.headers) };
    }),
  ),
  'logout-without-token-accepted': fault('platform.logout-response', 'a logout without a bearer token is answered 204', () =>
    on(['logout'], (inner) => (request) => (request.authorization === undefined ? { status: 204, headers: [], body: '' } : inner(request))),
  ),
  // The core checks whose next value it is; here another key's next value is answered as if that key had sent it, and so is every page it leads to.
  'next-followed-for-any-key': fault(
    'provider.isolation',
    'a next value is followed as the key it was issued to, whichever key sends it: a provider key walks on through the organization’s pages',
    () =>
      on(['listContent'], (inner) => {
        /** The Authorization of the request each next value was handed out to, by next value. */
        const issuedTo = new BoundedMap<string, string>(MAX_REMEMBERED_WALKS);
        return (request) => {
          const cursor = nextValue(`?${request.search}`);
          const owner = cursor === undefined ? undefined : issuedTo.get(cursor);
          const answered = owner === undefined ? request : { ...request, authorization: owner };
          const reply = inner(answered);
          const handedOut = nextOfReply(reply);
          if (handedOut !== undefined && answered.authorization !== undefined) issuedTo.set(handedOut, answered.authorization);
          return reply;
        };
      }),
  ),
  // The pattern still holds (yyyy-mm-ddThh:mm:ss.fff); only the calendar is broken.
  'modified-at-impossible-day': editing(
    'content.timestamps',
    'modified-at of every third item names the 31st of June, a day no calendar has',
    ['listContent'],
    (b) => attributesOf(b).forEach((a, n) => n % 3 === 0 && (a['modified-at'] = String(a['modified-at']).replace(/^(\d{4})-\d{2}-\d{2}/, '$1-06-31'))),
  ),
  'modified-before-created': editing(
    'platform.modified-after-created',
    'modified-at of every third item is a day before its created-at',
    ['listContent'],
    (b) =>
      attributesOf(b).forEach((a, n) => {
        if (n % 3 === 0) a['modified-at'] = formatZonelessTimestamp(parseZonelessTimestamp(String(a['created-at'])) - 86_400_000);
      }),
  ),
  // The 2 minutes counted from the walk's first request, not from the previous one: a walk whose requests each come within 2 minutes of the one before is
  // refused as obsolete once 2 minutes have passed since it began. The core still answers every request it lets through.
  'snapshot-expires-from-first-request': fault(
    'snapshot.alive',
    'a snapshot becomes obsolete 2 minutes after its first request, however recent the previous one',
    (o) => ({
      exchange: (endpoint, inner, core) => {
        if (endpoint !== 'listContent') return inner;
        const ttlSeconds = o.snapshotTtlSeconds ?? SNAPSHOT_TTL_SECONDS;
        const replies = new Replies({ api: core.profile.errors.body, token: core.profile.tokens.errorBody });
        /** When the walk a next value belongs to began, by the next values handed out. */
        const began = new BoundedMap<string, number>(MAX_REMEMBERED_WALKS);
        return (request) => {
          const cursor = nextValue(`?${request.search}`);
          const firstMs = cursor === undefined ? core.clock.now() : began.get(cursor);
          if (cursor !== undefined && firstMs !== undefined && snapshotObsolete(firstMs, ttlSeconds, core.clock.now())) {
            began.delete(cursor);
            const gone = apiErrors.snapshotGone('the snapshot of this next value is obsolete: its walk began 2 minutes ago; start again without next');
            return replies.api({ ...gone, status: core.profile.pagination.obsoleteStatus });
          }
          const reply = inner(request);
          const handedOut = nextOfReply(reply);
          if (handedOut !== undefined && firstMs !== undefined) began.set(handedOut, firstMs);
          return reply;
        };
      },
    }),
  ),
};
