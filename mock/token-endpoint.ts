/**
 * POST {auth}/oauth/token (document, Request an access token; RFC 6749 §4.4 and §6).
 *
 * Strict where the document is: grant_type client_credentials, valid client credentials, held
 * scopes, a token whose token_type is bearer and expires_in is the lifetime in seconds. Where it
 * leaves a choice open, the profile decides (tokens.*): the statuses of the two refusals, whether a
 * JSON body is read, the scope separators, expires_in as the lifetime or counting down, a fresh
 * token each time or the client's live one, the refresh grant, token_type's case; and whether token
 * requests spend the client's rate budget (rateLimit.countsTokenRequests). Refusals never carry a token.
 */
import type { Profile } from '../schemas/types.ts';
import type { Client, ClientDirectory } from './clients.ts';
import type { OAuthError } from './errors.ts';
import type { Replies, Reply } from './http.ts';
import type { RateLimit } from './rate-limit.ts';
import type { Exchange } from './routes.ts';
import { invalidRequest, readCredentials, readScopes, readTokenFields, type TokenFields } from './token-request.ts';
import type { IssuedTokens, Tokens } from './tokens.ts';

/**
 * Where throttling of repeated failed token requests plugs in: asked before the credentials are
 * checked, told the outcome after.
 */
export interface TokenThrottle {
  /** A reply refusing this client's request outright (429), or undefined to go on. */
  admit(clientId: string): Reply | undefined;
  /** The outcome of a request that named `clientId`: false for wrong credentials or a bad grant. */
  record(clientId: string, succeeded: boolean): void;
  reset(): void;
}

const NO_THROTTLE: TokenThrottle = { admit: () => undefined, record: () => {}, reset: () => {} };

export interface TokenEndpointOptions {
  readonly clients: ClientDirectory;
  readonly tokens: Tokens;
  readonly replies: Replies;
  readonly profile: Profile['tokens'];
  /** The rate limiter when token requests spend the client's budget; undefined when they do not. */
  readonly rate?: RateLimit | undefined;
  readonly throttle?: TokenThrottle | undefined;
  /** The virtual clock's time, for expires_in counting down. */
  readonly now: () => number;
}

export class TokenEndpoint {
  readonly #o: TokenEndpointOptions;
  readonly #throttle: TokenThrottle;

  constructor(o: TokenEndpointOptions) {
    this.#o = o;
    this.#throttle = o.throttle ?? NO_THROTTLE;
  }

  respond(request: Exchange): Reply {
    const profile = this.#o.profile;
    const fields = readTokenFields(request.contentType, request.body, profile.acceptJsonBody, profile.mislabelledForm === 'read-as-form');
    if ('error' in fields) return this.#refuse(fields);

    const grantType = fields.grant_type;
    if (grantType === undefined) return this.#refuse(invalidRequest('grant_type is missing; use grant_type=client_credentials.'));
    if (grantType !== 'client_credentials' && !(grantType === 'refresh_token' && profile.refreshGrant)) {
      const supported = profile.refreshGrant ? 'client_credentials (or refresh_token)' : 'client_credentials';
      return this.#refuse({
        status: 400,
        error: 'unsupported_grant_type',
        description: `grant_type "${grantType.slice(0, 40)}" is not supported; use ${supported}.`,
      });
    }

    const credentials = readCredentials(request.authorization, fields);
    if ('error' in credentials) return this.#refuse(credentials);
    const throttled = this.#throttle.admit(credentials.id);
    if (throttled !== undefined) return throttled;
    const client = this.#o.clients.authenticate(credentials.id, credentials.secret);
    if (client === undefined) {
      this.#throttle.record(credentials.id, false);
      const description = 'Client authentication failed: unknown client_id or wrong client_secret.';
      return this.#refuse({ status: profile.badCredentialsStatus, error: 'invalid_client', description });
    }

    // From here the request is the client's: where token requests count, it spends its budget.
    let rateHeaders: string[] = [];
    if (this.#o.rate !== undefined) {
      const rate = this.#o.rate.take({ client, token: '' });
      if (rate.refused) {
        const rateOf = client.rate;
        const description = `Rate limit exceeded: at most ${rateOf?.requests ?? 0} requests per ${rateOf?.period ?? ''}, token requests included.`;
        return this.#refuse({ status: 429, error: 'invalid_request', description }, rate.headers);
      }
      rateHeaders = rate.headers;
    }
    return grantType === 'client_credentials' ? this.#clientCredentials(client, fields, rateHeaders) : this.#refreshToken(client, fields, rateHeaders);
  }

  #clientCredentials(client: Client, fields: TokenFields, headers: string[]): Reply {
    const profile = this.#o.profile;
    if (fields.scope === undefined)
      return this.#refuse(invalidRequest('scope is missing; list the scopes the token needs, comma-delimited (scope=content:read).'), headers);
    const scopes = readScopes(fields.scope, profile.scopeSeparators);
    if (scopes.length === 0) return this.#refuse(invalidRequest('scope is empty; list the scopes the token needs, comma-delimited.'), headers);
    const unheld = scopes.filter((s) => !client.scopes.has(s));
    if (unheld.length > 0) {
      const description = `The key does not hold the scope${unheld.length > 1 ? 's' : ''} ${unheld.map((s) => s.slice(0, 60)).join(', ')}.`;
      return this.#refuse({ status: profile.unheldScopeStatus, error: 'invalid_scope', description }, headers);
    }
    this.#throttle.record(client.id, true);
    const live = profile.reuse === 'live-token' ? this.#o.tokens.live(client, scopes) : undefined;
    if (live !== undefined) {
      const left = countdown(live, this.#o.now());
      // A live token with less than a second left would say expires_in 0: a fresh one is handed out instead.
      if (left >= 1) return this.#reply(live, left, headers);
    }
    return this.#issue(client, scopes, headers);
  }

  #refreshToken(client: Client, fields: TokenFields, headers: string[]): Reply {
    const token = fields.refresh_token;
    if (token === undefined) return this.#refuse(invalidRequest('refresh_token is missing.'), headers);
    const grant = this.#o.tokens.findRefresh(token, client);
    if (grant === undefined) {
      this.#throttle.record(client.id, false);
      const description = 'The refresh token is unknown, expired, already used or logged out, or was issued to another client.';
      return this.#refuse({ status: 400, error: 'invalid_grant', description }, headers);
    }
    // RFC 6749 §6: a refresh may narrow the scopes, never widen them.
    const scopes = fields.scope === undefined ? [...grant.scopes] : readScopes(fields.scope, this.#o.profile.scopeSeparators);
    const wider = scopes.filter((s) => !grant.scopes.has(s));
    if (scopes.length === 0) return this.#refuse(invalidRequest('scope is empty; omit it to keep the scopes of the refresh token.'), headers);
    if (wider.length > 0) {
      const description = `The refresh token was not granted ${wider.join(', ')}.`;
      return this.#refuse({ status: this.#o.profile.unheldScopeStatus, error: 'invalid_scope', description }, headers);
    }
    this.#o.tokens.redeemRefresh(token, client.id); // rotation: a refresh token works once
    this.#throttle.record(client.id, true);
    return this.#issue(client, scopes, headers);
  }

  #issue(client: Client, scopes: readonly string[], headers: string[]): Reply {
    const issued = this.#o.tokens.issue(client, scopes);
    // A one-second lifetime counted down would say 0: expires_in stays a positive number of seconds.
    const expiresIn = this.#o.profile.expiresIn === 'countdown' ? Math.max(1, countdown(issued, issued.issuedAtMs)) : issued.lifetimeSeconds;
    return this.#reply(issued, expiresIn, headers);
  }

  #reply(tokens: IssuedTokens, expiresIn: number, headers: string[]): Reply {
    // base64url tokens need no JSON escaping.
    const body = `{"access_token":"${tokens.accessToken}","token_type":"${this.#o.profile.tokenType}","expires_in":${expiresIn},"refresh_token":"${tokens.refreshToken}"}`;
    headers.push('Cache-Control', 'no-store', 'Pragma', 'no-cache');
    return this.#o.replies.json(200, body, headers);
  }

  #refuse(error: OAuthError, headers: string[] = []): Reply {
    // RFC 6749 §5.2: a 401 names the authentication scheme the client can use.
    headers.push('Cache-Control', 'no-store');
    if (error.status === 401) headers.push('WWW-Authenticate', 'Basic realm="oauth"');
    return this.#o.replies.oauth(error, headers);
  }
}

/**
 * expires_in counting down: the lifetime less the whole seconds elapsed since issue, one second
 * short at issue (as the real platform writes 5183999 for 60 days). Never more than the time left.
 */
function countdown(tokens: Pick<IssuedTokens, 'lifetimeSeconds' | 'issuedAtMs'>, now: number): number {
  return tokens.lifetimeSeconds - 1 - Math.floor(Math.max(0, now - tokens.issuedAtMs) / 1000);
}
