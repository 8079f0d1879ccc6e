/**
 * POST {base}/oauth/token with a bearer token (document, Log out): the access token expires at once, and a `{"refresh_token": "..."}` of the same client too.
 * The document shows neither body nor response, so the profile chooses (logout.request: empty or a JSON object, only an object, or any; logout.response: 204,
 * 200 with a small JSON body, or an empty 200). An `api`-origin request: it counts against the rate limit and carries its headers.
 */
import type { Profile } from '../schemas/types.ts';
import type { AccessControl } from './bearer.ts';
import { apiErrors } from './error-bodies.ts';
import { isPlainObject, parseJsonBody, type Replies, type Reply } from './http.ts';
import { quotaExceeded, type RateLimit } from './rate-limit.ts';
import type { Exchange } from './routes.ts';
import type { Tokens } from './tokens.ts';

const LOGGED_OUT_JSON = '{"status":"logged-out"}';

type Body = { ok: true; refreshToken: string | undefined } | { ok: false; detail: string; parameter?: string };

type LogoutParts = { access: AccessControl; tokens: Tokens; rate: RateLimit; replies: Replies; profile: Profile['logout'] };

export class Logout {
  constructor(private readonly o: LogoutParts) {}

  respond(request: Exchange): Reply {
    const auth = this.o.access.authenticate(request.authorization);
    if (!auth.ok) return this.o.replies.api(auth.error, auth.headers);
    const rate = this.o.rate.take(auth.grant);
    if (rate.refused) return this.o.replies.api(quotaExceeded(auth.grant.client), rate.headers);
    // Check the whole body before expiring anything: a refused logout changes nothing.
    const body = this.#body(request.body);
    if (!body.ok) return this.o.replies.api(apiErrors.invalidBody(body.detail, body.parameter), rate.headers);
    this.o.tokens.expireAccess(auth.grant.token);
    // Another client's refresh token is left alone: logging out must not reach across clients.
    if (body.refreshToken !== undefined) this.o.tokens.expireRefresh(body.refreshToken, auth.grant.client.id);
    return this.#done(rate.headers);
  }

  /** The body's refresh token, or why the body is refused; with `any` nothing is, yet a JSON object's refresh_token still expires (the document says so). */
  #body(bytes: Buffer): Body {
    const kind = this.o.profile.request;
    const parsed = parseJsonBody(bytes);
    const expected = kind === 'json-object' ? 'a JSON object' : 'empty or a JSON object';
    const value = parsed.ok ? parsed.value : undefined;
    const refuse = (detail: string, parameter?: string): Body =>
      kind === 'any' ? { ok: true, refreshToken: undefined } : { ok: false, detail, ...(parameter ? { parameter } : {}) };
    if (!parsed.ok) return refuse(`The logout body must be ${expected}: ${parsed.error}.`);
    if (value === undefined && kind === 'json-object')
      return refuse('The logout body must be a JSON object, like {} or {"refresh_token": "..."}; it is empty.');
    if (value !== undefined && !isPlainObject(value)) return refuse(`The logout body must be ${expected} like {"refresh_token": "..."}.`);
    const given = isPlainObject(value) ? value.refresh_token : undefined;
    if (given === undefined || (typeof given === 'string' && given !== '')) return { ok: true, refreshToken: given };
    return refuse('refresh_token must be a non-empty string.', 'refresh_token');
  }

  #done(headers: string[]): Reply {
    const { response } = this.o.profile;
    if (response === '200-json') return this.o.replies.json(200, LOGGED_OUT_JSON, headers);
    return this.o.replies.empty(response === '204' ? 204 : 200, headers);
  }
}
