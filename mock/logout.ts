/**
 * POST {base}/oauth/token with a bearer token (document, Log out): the access token expires at once,
 * and a refresh token given as `{"refresh_token": "..."}` expires too when it is the same client's.
 * The document shows neither body nor response: an empty body is fine, the answer is 204
 * (variant `logout-200-json`: 200 with a small JSON body). Logout is an `api`-origin request, so it
 * counts against the client's rate limit and carries the rate headers.
 */
import type { BearerAuth } from './bearer.ts';
import { apiErrors } from './errors.ts';
import type { Faults } from './faults.ts';
import { isPlainObject, parseJsonBody, type Replies, type Reply } from './http.ts';
import { quotaExceeded, type RateLimiter } from './rate-limit.ts';
import type { TokenStore } from './tokens.ts';
import type { Variants } from './variants.ts';

export interface LogoutRequest {
  readonly authorization: string | undefined;
  readonly body: Buffer;
}

const LOGGED_OUT_JSON = '{"status":"logged-out"}';

export class Logout {
  readonly #bearer: BearerAuth;
  readonly #tokens: TokenStore;
  readonly #limiter: RateLimiter;
  readonly #replies: Replies;
  readonly #withoutToken: boolean;
  readonly #keepAccess: boolean;
  readonly #keepRefresh: boolean;
  readonly #json: boolean;

  constructor(o: { bearer: BearerAuth; tokens: TokenStore; limiter: RateLimiter; replies: Replies; faults: Faults; variants: Variants }) {
    this.#bearer = o.bearer;
    this.#tokens = o.tokens;
    this.#limiter = o.limiter;
    this.#replies = o.replies;
    this.#withoutToken = o.faults.has('logout-without-token-accepted');
    this.#keepAccess = o.faults.has('logout-keeps-access-token');
    this.#keepRefresh = o.faults.has('logout-keeps-refresh-token');
    this.#json = o.variants.has('logout-200-json');
  }

  respond(request: LogoutRequest): Reply {
    const auth = this.#bearer.authenticate(request.authorization);
    if (!auth.ok) return this.#withoutToken ? this.#done([]) : this.#replies.api(auth.error, auth.headers);
    const rate = this.#limiter.take(auth.grant);
    if (rate.refused) return this.#replies.api(quotaExceeded(auth.grant.client), rate.headers);

    // Check the whole body before expiring anything: a refused logout changes nothing.
    const parsed = parseJsonBody(request.body);
    if (!parsed.ok) return this.#replies.api(apiErrors.invalidBody(`The logout body must be empty or a JSON object: ${parsed.reason}.`), rate.headers);
    let refreshToken: string | undefined;
    if (parsed.value !== undefined) {
      if (!isPlainObject(parsed.value))
        return this.#replies.api(apiErrors.invalidBody('The logout body must be empty or a JSON object like {"refresh_token": "..."}.'), rate.headers);
      const given = parsed.value.refresh_token;
      if (given !== undefined && (typeof given !== 'string' || given === '')) {
        return this.#replies.api(apiErrors.invalidBody('refresh_token must be a non-empty string.', 'refresh_token'), rate.headers);
      }
      refreshToken = given;
    }

    if (!this.#keepAccess) this.#tokens.expireAccess(auth.grant.token);
    // Another client's refresh token is left alone: logging out must not reach across clients.
    if (refreshToken !== undefined && !this.#keepRefresh) this.#tokens.expireRefresh(refreshToken, auth.grant.client.id);
    return this.#done(rate.headers);
  }

  #done(headers: string[]): Reply {
    return this.#json ? this.#replies.json(200, LOGGED_OUT_JSON, headers) : this.#replies.empty(204, headers);
  }
}
