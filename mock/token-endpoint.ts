/**
 * POST {auth}/oauth/token (document, Request an access token; RFC 6749 §4.4 and §6).
 *
 * Strict where the document is: grant_type client_credentials, valid credentials, held scopes, token_type bearer, expires_in the lifetime in seconds. Where it
 * is open the profile decides: the two refusals' statuses, JSON bodies, scope separators, expires_in counting down, a fresh or the live token, the refresh
 * grant, token_type's case (tokens.*); token requests spending the rate budget (rateLimit.countsTokenRequests), the default lifetime (tokens.lifetime), a limit
 * per client_id (tokens.requestLimit). A refusal never carries a token: it is an OAuth error saying what was wrong and expected.
 */
import { parseScopeList } from '../contracts/scopes.ts';
import type { Profile } from '../schemas/types.ts';
import type { Client, ClientDirectory } from './clients.ts';
import type { OAuthError } from './error-bodies.ts';
import { isPlainObject, mediaType, parseJsonBody, type Replies, type Reply } from './http.ts';
import { formDecode } from './query.ts';
import type { RateLimit } from './rate-limit.ts';
import type { Exchange } from './routes.ts';
import type { FailureThrottle } from './token-throttle.ts';
import type { IssuedTokens, Tokens } from './tokens.ts';

const FORM = 'application/x-www-form-urlencoded';
const FIELDS = ['grant_type', 'client_id', 'client_secret', 'scope', 'refresh_token'] as const;
type Field = (typeof FIELDS)[number];
type TokenFields = Partial<Record<Field, string>>;

const BASIC = /^basic +([A-Za-z0-9+/]+=*) *$/i;
const BASIC_SCHEME = /^basic(?: |$)/i;

const invalidRequest = (description: string): OAuthError => ({ status: 400, error: 'invalid_request', description });

/**
 * The fields of the body, or why it is refused: a form body always; a JSON object too when `acceptJson` (the document names the form; a service may read JSON
 * as well); and, when `mislabelledForm`, a body labelled JSON that is not a JSON object but reads as a form (some clients send the form with the wrong label,
 * and a service may read bodies by what they hold).
 */
function readTokenFields(contentType: string | undefined, body: Buffer, acceptJson: boolean, mislabelledForm: boolean): TokenFields | OAuthError {
  const type = mediaType(contentType);
  const json = type === 'application/json' || type.endsWith('+json');
  if (json && mislabelledForm && !body.toString('utf8').trimStart().startsWith('{')) return formFields(body);
  if (json && acceptJson) return jsonFields(body);
  if (json) return invalidRequest(`The body must be form-encoded (Content-Type: ${FORM}), not JSON.`);
  if (type !== FORM) {
    const accepted = acceptJson ? `${FORM} or application/json` : FORM;
    return invalidRequest(`Content-Type must be ${accepted}; got ${type === '' ? 'none' : `"${type.slice(0, 60)}"`}.`);
  }
  return formFields(body);
}

/** The fields of a form body; a field given twice is refused (RFC 6749 §3.2). */
function formFields(body: Buffer): TokenFields | OAuthError {
  const fields: TokenFields = {};
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    if (seen.has(name)) return invalidRequest(`The parameter ${name.slice(0, 40)} is given more than once (RFC 6749 §3.2).`);
    seen.add(name);
    if ((FIELDS as readonly string[]).includes(name)) fields[name as Field] = value;
  }
  return fields;
}

/** The same fields from a JSON object; members of other types than string are refused by name. */
function jsonFields(body: Buffer): TokenFields | OAuthError {
  const parsed = parseJsonBody(body);
  if (!parsed.ok) return invalidRequest(`The JSON body cannot be read: ${parsed.error}.`);
  if (!isPlainObject(parsed.value))
    return invalidRequest('The JSON body must be an object of the token request fields, like {"grant_type": "client_credentials", …}.');
  const fields: TokenFields = {};
  for (const name of FIELDS) {
    const value = parsed.value[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return invalidRequest(`${name} must be a string.`);
    fields[name] = value;
  }
  return fields;
}

/** Basic credentials of the Authorization header; undefined when the header is some other scheme. */
function parseBasic(header: string | undefined): { id: string; secret: string } | 'malformed' | undefined {
  if (header === undefined || !BASIC_SCHEME.test(header)) return undefined;
  const match = BASIC.exec(header);
  if (!match) return 'malformed';
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  const [id, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)].map(formDecode);
  return id === undefined || secret === undefined || id === '' ? 'malformed' : { id, secret };
}

/** The client credentials, from the Basic header or the body (RFC 6749 §2.3.1: one way, not both). */
function readCredentials(authorization: string | undefined, fields: TokenFields): { id: string; secret: string } | OAuthError {
  const basic = parseBasic(authorization);
  if (basic === 'malformed') return invalidRequest('The Basic Authorization header is malformed; expected base64 of client_id:client_secret.');
  if (basic !== undefined && (fields.client_id !== undefined || fields.client_secret !== undefined))
    return invalidRequest('Client credentials are given both in the Authorization header and in the body; use one (RFC 6749 §2.3).');
  if (basic !== undefined) return basic;
  if (fields.client_id === undefined || fields.client_id === '') return invalidRequest('client_id is missing.');
  if (fields.client_secret === undefined) return invalidRequest('client_secret is missing.');
  return { id: fields.client_id, secret: fields.client_secret };
}

/** The scopes of a field: comma-delimited (the document); `comma-or-space` splits at spaces too. Under `comma` a space is part of a name no key holds. */
function readScopes(text: string, separators: 'comma' | 'comma-or-space'): string[] {
  if (separators === 'comma-or-space') return parseScopeList(text);
  return [...new Set(text.split(',').map((part) => part.trim()))].filter((scope) => scope !== '');
}

export interface TokenEndpointOptions {
  readonly clients: ClientDirectory;
  readonly tokens: Tokens;
  readonly replies: Replies;
  readonly profile: Profile['tokens'];
  /** The rate limiter when token requests spend the client's budget; undefined when they do not. */
  readonly rate?: RateLimit | undefined;
  readonly throttle?: FailureThrottle | undefined;
  /** Every token request counted per client_id (profile tokens.requestLimit); undefined: not limited. */
  readonly requestLimit?: FailureThrottle | undefined;
  /** The virtual clock's time, for expires_in counting down. */
  readonly now: () => number;
}

export class TokenEndpoint {
  constructor(private readonly o: TokenEndpointOptions) {}

  respond(request: Exchange): Reply {
    const profile = this.o.profile;
    const fields = readTokenFields(request.contentType, request.body, profile.acceptJsonBody, profile.mislabelledForm === 'read-as-form');
    if ('error' in fields) return this.#refuse(fields);
    const grantType = fields.grant_type;
    if (grantType === undefined) return this.#refuse(invalidRequest('grant_type is missing; use grant_type=client_credentials.'));
    if (grantType !== 'client_credentials' && !(grantType === 'refresh_token' && profile.refreshGrant)) {
      const supported = profile.refreshGrant ? 'client_credentials (or refresh_token)' : 'client_credentials';
      const description = `grant_type "${grantType.slice(0, 40)}" is not supported; use ${supported}.`;
      return this.#refuse({ status: 400, error: 'unsupported_grant_type', description });
    }
    const credentials = readCredentials(request.authorization, fields);
    if ('error' in credentials) return this.#refuse(credentials);
    const throttled = this.o.throttle?.admit(credentials.id) ?? this.o.requestLimit?.admit(credentials.id);
    if (throttled !== undefined) return throttled;
    this.o.requestLimit?.record(credentials.id, false);
    const client = this.o.clients.authenticate(credentials.id, credentials.secret);
    if (client === undefined) {
      this.o.throttle?.record(credentials.id, false);
      const description = 'Client authentication failed: unknown client_id or wrong client_secret.';
      return this.#refuse({ status: profile.badCredentialsStatus, error: 'invalid_client', description });
    }
    // From here the request is the client's: where token requests count, it spends its budget.
    const rate = this.o.rate?.take({ client, token: '' });
    if (rate?.refused === true) {
      const description = `Rate limit exceeded: at most ${client.rate?.requests ?? 0} requests per ${client.rate?.period ?? ''}, token requests included.`;
      return this.#refuse({ status: 429, error: 'invalid_request', description }, rate.headers);
    }
    const headers = rate?.headers ?? [];
    return grantType === 'client_credentials' ? this.#clientCredentials(client, fields, headers) : this.#refreshToken(client, fields, headers);
  }

  #clientCredentials(client: Client, fields: TokenFields, headers: string[]): Reply {
    const profile = this.o.profile;
    if (fields.scope === undefined)
      return this.#refuse(invalidRequest('scope is missing; list the scopes the token needs, comma-delimited (scope=content:read).'), headers);
    const scopes = readScopes(fields.scope, profile.scopeSeparators);
    if (scopes.length === 0) return this.#refuse(invalidRequest('scope is empty; list the scopes the token needs, comma-delimited.'), headers);
    const unheld = scopes.filter((s) => !client.scopes.has(s));
    if (unheld.length > 0) {
      const description = `The key does not hold the scope${unheld.length > 1 ? 's' : ''} ${unheld.map((s) => s.slice(0, 60)).join(', ')}.`;
      return this.#refuse({ status: profile.unheldScopeStatus, error: 'invalid_scope', description }, headers);
    }
    this.o.throttle?.record(client.id, true);
    const live = profile.reuse === 'live-token' ? this.o.tokens.live(client, scopes) : undefined;
    const left = live === undefined ? 0 : countdown(live, this.o.now());
    // A live token with less than a second left would say expires_in 0: a fresh one is handed out instead.
    if (live !== undefined && left >= 1) return this.#reply(live, left, headers);
    return this.#issue(client, scopes, headers);
  }

  #refreshToken(client: Client, fields: TokenFields, headers: string[]): Reply {
    const token = fields.refresh_token;
    if (token === undefined) return this.#refuse(invalidRequest('refresh_token is missing.'), headers);
    const grant = this.o.tokens.findRefresh(token, client);
    if (grant === undefined) {
      this.o.throttle?.record(client.id, false);
      const description = 'The refresh token is unknown, expired, already used or logged out, or was issued to another client.';
      return this.#refuse({ status: 400, error: 'invalid_grant', description }, headers);
    }
    // RFC 6749 §6: a refresh may narrow the scopes, never widen them.
    const scopes = fields.scope === undefined ? [...grant.scopes] : readScopes(fields.scope, this.o.profile.scopeSeparators);
    const wider = scopes.filter((s) => !grant.scopes.has(s));
    if (scopes.length === 0) return this.#refuse(invalidRequest('scope is empty; omit it to keep the scopes of the refresh token.'), headers);
    if (wider.length > 0) {
      const description = `The refresh token was not granted ${wider.join(', ')}.`;
      return this.#refuse({ status: this.o.profile.unheldScopeStatus, error: 'invalid_scope', description }, headers);
    }
    this.o.tokens.redeemRefresh(token, client.id); // rotation: a refresh token works once
    this.o.throttle?.record(client.id, true);
    return this.#issue(client, scopes, headers);
  }

  #issue(client: Client, scopes: readonly string[], headers: string[]): Reply {
    const issued = this.o.tokens.issue(client, scopes);
    // A one-second lifetime counted down would say 0: expires_in stays a positive number of seconds.
    const expiresIn = this.o.profile.expiresIn === 'countdown' ? Math.max(1, countdown(issued, issued.issuedAtMs)) : issued.lifetimeSeconds;
    return this.#reply(issued, expiresIn, headers);
  }

  #reply(tokens: IssuedTokens, expiresIn: number, headers: string[]): Reply {
    // base64url tokens need no JSON escaping.
    const body = `{"access_token":"${tokens.accessToken}","token_type":"${this.o.profile.tokenType}","expires_in":${expiresIn},"refresh_token":"${tokens.refreshToken}"}`;
    headers.push('Cache-Control', 'no-store', 'Pragma', 'no-cache');
    return this.o.replies.json(200, body, headers);
  }

  #refuse(error: OAuthError, headers: string[] = []): Reply {
    // RFC 6749 §5.2: a 401 names the authentication scheme the client can use.
    headers.push('Cache-Control', 'no-store');
    if (error.status === 401) headers.push('WWW-Authenticate', 'Basic realm="oauth"');
    return this.o.replies.oauth(error, headers);
  }
}

/** expires_in counting down: lifetime less whole seconds since issue, one short at issue (the platform writes 5183999 for 60 days); never more than is left. */
function countdown(tokens: Pick<IssuedTokens, 'lifetimeSeconds' | 'issuedAtMs'>, now: number): number {
  return tokens.lifetimeSeconds - 1 - Math.floor(Math.max(0, now - tokens.issuedAtMs) / 1000);
}
