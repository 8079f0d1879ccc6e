/**
 * POST {auth}/oauth/token (document, Request an access token; RFC 6749 §4.4 and §6).
 *
 * Strict on purpose: only form-encoded bodies; grant types client_credentials and refresh_token;
 * client credentials in the form or by HTTP Basic (RFC 6749 §2.3.1), not both; no parameter twice
 * (§3.2); `scope` required for client_credentials and granted exactly as requested. Refusals are
 * OAuth error bodies, never a token. Wrong credentials and unheld scopes get 403 as on the real
 * platform (reference notes); variants `token-error-400` / `token-error-401` move them to 400 / 401.
 */
import { parseScopeList } from '../contracts/scopes.ts';
import type { Client, ClientRegistry } from './clients.ts';
import type { OAuthError, OAuthErrorCode } from './errors.ts';
import type { Faults } from './faults.ts';
import { mediaType, type Replies, type Reply } from './http.ts';
import type { TokenStore } from './tokens.ts';
import type { Variants } from './variants.ts';

export interface TokenRequest {
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  readonly body: Buffer;
}

/**
 * Where throttling of repeated failed token requests plugs in (issue 7): asked before the
 * credentials are checked, told the outcome after.
 */
export interface TokenThrottle {
  /** A reply refusing this client's request outright (429), or undefined to go on. */
  admit(clientId: string): Reply | undefined;
  /** The outcome of a request that named `clientId`: false for wrong credentials or a bad grant. */
  record(clientId: string, succeeded: boolean): void;
  reset(): void;
}

export const NO_THROTTLE: TokenThrottle = { admit: () => undefined, record: () => {}, reset: () => {} };

const FORM = 'application/x-www-form-urlencoded';
const FIELDS = ['grant_type', 'client_id', 'client_secret', 'scope', 'refresh_token'] as const;
type Field = (typeof FIELDS)[number];
type Fields = Partial<Record<Field, string>>;

const BASIC = /^basic +([A-Za-z0-9+/]+=*) *$/i;
const BASIC_SCHEME = /^basic(?: |$)/i;

type Credentials = { id: string; secret: string };

const invalidRequest = (description: string): OAuthError => ({ status: 400, error: 'invalid_request', description });

/** RFC 6749 appendix B: the Basic user and password are form-encoded before base64. */
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Basic credentials of the Authorization header; undefined when the header is some other scheme. */
function parseBasic(header: string | undefined): Credentials | 'malformed' | undefined {
  if (header === undefined || !BASIC_SCHEME.test(header)) return undefined;
  const match = BASIC.exec(header);
  if (!match) return 'malformed';
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id === undefined || secret === undefined || id === '' ? 'malformed' : { id, secret };
}

export class TokenEndpoint {
  readonly #clients: ClientRegistry;
  readonly #tokens: TokenStore;
  readonly #replies: Replies;
  readonly #throttle: TokenThrottle;
  readonly #faults: Faults;
  /** Status of the two refusals the document leaves open: wrong credentials and an unheld scope. */
  readonly #refusalStatus: 400 | 401 | 403;
  readonly #expiresInShort: boolean;
  readonly #tokenType: string;

  constructor(o: { clients: ClientRegistry; tokens: TokenStore; replies: Replies; faults: Faults; variants: Variants; throttle?: TokenThrottle }) {
    this.#clients = o.clients;
    this.#tokens = o.tokens;
    this.#replies = o.replies;
    this.#throttle = o.throttle ?? NO_THROTTLE;
    this.#faults = o.faults;
    this.#refusalStatus = o.variants.has('token-error-401') ? 401 : o.variants.has('token-error-400') ? 400 : 403;
    this.#expiresInShort = o.variants.has('expires-in-short');
    this.#tokenType = o.faults.has('token-type-not-bearer') ? 'mac' : 'bearer';
  }

  respond(request: TokenRequest): Reply {
    const fields = this.#fields(request);
    if ('error' in fields) return this.#refuse(fields);

    const grantType = fields.grant_type;
    if (grantType === undefined) return this.#refuse(invalidRequest('grant_type is missing; use grant_type=client_credentials.'));
    let grant: 'client_credentials' | 'refresh_token';
    if (grantType === 'client_credentials' || grantType === 'refresh_token') grant = grantType;
    else if (this.#faults.has('token-unsupported-grant-accepted')) grant = 'client_credentials';
    else {
      return this.#refuse({
        status: 400,
        error: 'unsupported_grant_type',
        description: `grant_type "${grantType.slice(0, 40)}" is not supported; use client_credentials (or refresh_token).`,
      });
    }

    const credentials = this.#credentials(request.authorization, fields);
    if ('error' in credentials) return this.#refuse(credentials);

    const throttled = this.#throttle.admit(credentials.id);
    if (throttled !== undefined) return throttled;

    const client = this.#authenticate(credentials);
    if (client === undefined) {
      this.#throttle.record(credentials.id, false);
      return this.#refuse(this.#refusal('invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.'));
    }
    return grant === 'client_credentials' ? this.#clientCredentials(client, fields) : this.#refreshToken(client, fields);
  }

  #clientCredentials(client: Client, fields: Fields): Reply {
    if (fields.scope === undefined)
      return this.#refuse(invalidRequest('scope is missing; list the scopes the token needs, comma-delimited (scope=content:read).'));
    const scopes = parseScopeList(fields.scope);
    if (scopes.length === 0) return this.#refuse(invalidRequest('scope is empty; list the scopes the token needs, comma-delimited.'));
    const unheld = this.#faults.has('token-unheld-scope-granted') ? [] : scopes.filter((s) => !client.scopes.has(s));
    if (unheld.length > 0)
      return this.#refuse(this.#refusal('invalid_scope', `The key does not hold the scope${unheld.length > 1 ? 's' : ''} ${unheld.join(', ')}.`));
    this.#throttle.record(client.id, true);
    return this.#issue(client, scopes);
  }

  #refreshToken(client: Client, fields: Fields): Reply {
    const token = fields.refresh_token;
    if (token === undefined) return this.#refuse(invalidRequest('refresh_token is missing.'));
    const grant = this.#tokens.findRefresh(token, client);
    if (grant === undefined) {
      this.#throttle.record(client.id, false);
      return this.#refuse({
        status: 400,
        error: 'invalid_grant',
        description: 'The refresh token is unknown, expired, already used or logged out, or was issued to another client.',
      });
    }
    // RFC 6749 §6: a refresh may narrow the scopes, never widen them.
    const scopes = fields.scope === undefined ? [...grant.scopes] : parseScopeList(fields.scope);
    const wider = scopes.filter((s) => !grant.scopes.has(s));
    if (scopes.length === 0) return this.#refuse(invalidRequest('scope is empty; omit it to keep the scopes of the refresh token.'));
    if (wider.length > 0) return this.#refuse(this.#refusal('invalid_scope', `The refresh token was not granted ${wider.join(', ')}.`));
    this.#tokens.expireRefresh(token, client.id); // rotation: a refresh token works once
    this.#throttle.record(client.id, true);
    return this.#issue(client, scopes);
  }

  #issue(client: Client, scopes: readonly string[]): Reply {
    const issued = this.#tokens.issue(client, scopes);
    const seconds = this.#expiresInShort ? issued.lifetimeSeconds - 1 : issued.lifetimeSeconds;
    const expiresIn = this.#faults.has('token-expires-in-string') ? `"${seconds}"` : String(seconds);
    // base64url tokens need no JSON escaping.
    const body = `{"access_token":"${issued.accessToken}","token_type":"${this.#tokenType}","expires_in":${expiresIn},"refresh_token":"${issued.refreshToken}"}`;
    return this.#replies.json(200, body, ['Cache-Control', 'no-store', 'Pragma', 'no-cache']);
  }

  /** The form fields, or why the body is refused. */
  #fields(request: TokenRequest): Fields | OAuthError {
    const type = mediaType(request.contentType);
    if (type === 'application/json' && this.#faults.has('token-json-body-accepted')) return this.#jsonFields(request.body);
    if (type === 'application/json' || type.endsWith('+json')) {
      return invalidRequest(`The body must be form-encoded (Content-Type: ${FORM}), not JSON.`);
    }
    if (type !== FORM) {
      return invalidRequest(`Content-Type must be ${FORM}; got ${type === '' ? 'none' : `"${type.slice(0, 60)}"`}.`);
    }
    const params = new URLSearchParams(request.body.toString('utf8'));
    const fields: Fields = {};
    const seen = new Set<string>();
    for (const [name, value] of params) {
      if (seen.has(name)) return invalidRequest(`The parameter ${name.slice(0, 40)} is given more than once (RFC 6749 §3.2).`);
      seen.add(name);
      if ((FIELDS as readonly string[]).includes(name)) fields[name as Field] = value;
    }
    return fields;
  }

  /** Fault `token-json-body-accepted`: reads the same fields from a JSON object. */
  #jsonFields(body: Buffer): Fields | OAuthError {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return invalidRequest('The body is not valid JSON.');
    }
    const fields: Fields = {};
    if (typeof value === 'object' && value !== null) {
      for (const name of FIELDS) {
        const v = (value as Record<string, unknown>)[name];
        if (typeof v === 'string') fields[name] = v;
      }
    }
    return fields;
  }

  #credentials(authorization: string | undefined, fields: Fields): Credentials | OAuthError {
    const basic = parseBasic(authorization);
    if (basic === 'malformed') return invalidRequest('The Basic Authorization header is malformed; expected base64 of client_id:client_secret.');
    if (basic !== undefined) {
      if (fields.client_id !== undefined || fields.client_secret !== undefined) {
        return invalidRequest('Client credentials are given both in the Authorization header and in the body; use one (RFC 6749 §2.3).');
      }
      return basic;
    }
    if (fields.client_id === undefined || fields.client_id === '') return invalidRequest('client_id is missing.');
    if (fields.client_secret === undefined) return invalidRequest('client_secret is missing.');
    return { id: fields.client_id, secret: fields.client_secret };
  }

  #authenticate(credentials: Credentials): Client | undefined {
    const client = this.#clients.authenticate(credentials.id, credentials.secret);
    if (client !== undefined || !this.#faults.has('token-wrong-secret-accepted')) return client;
    return this.#clients.get(credentials.id);
  }

  #refusal(error: Extract<OAuthErrorCode, 'invalid_client' | 'invalid_scope'>, description: string): OAuthError {
    return { status: this.#refusalStatus, error, description };
  }

  #refuse(error: OAuthError): Reply {
    // RFC 6749 §5.2: a 401 names the authentication scheme the client can use.
    const headers = ['Cache-Control', 'no-store'];
    if (error.status === 401) headers.push('WWW-Authenticate', 'Basic realm="oauth"');
    return this.#replies.oauth(error, headers);
  }
}
