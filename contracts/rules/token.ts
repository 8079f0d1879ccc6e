/**
 * The rules of token issuance (document, Endpoints, 1. Request an access token; Authentication 1, 2, 5; Resources, Access token response), and the platform's
 * choices the document leaves open. The response rules are judged on every served answer of the token endpoint.
 */
import { held, type Exchange, isServed, type JudgeContext, type Judgement } from './exchange.ts';
import { inArea } from './rule.ts';
import { formatErrors } from './schema-errors.ts';

export const TOKEN_RULES = inArea('token', {
  'token.issued': {
    level: 'contract',
    statement: 'a token request with valid client credentials and held scopes gets a token: access_token, token_type, expires_in and refresh_token',
    section: 'States and transitions; Endpoints, 1. Request an access token',
    quote:
      'none | Token request accepted | Valid client credentials and scope | token valid | Response carries access_token, expires_in, refresh_token. — Response: JSON object with access_token, token_type, expires_in, refresh_token.',
  },
  'token.response': {
    level: 'contract',
    statement: 'the token response holds access_token (string), token_type bearer (any case), expires_in (integer seconds) and refresh_token (string)',
    section: 'Resources, Access token response',
    quote: 'access_token | string | Bearer token. token_type | string | `bearer`. expires_in | integer | Lifetime in seconds. refresh_token | string',
    judged: 'every 2xx token response',
    judge: judgeTokenResponse,
  },
  'token.credentials': {
    level: 'contract',
    statement: 'a token request with a wrong client secret or an unknown client_id gets no token',
    section: 'States and transitions; Authentication 1',
    quote: 'Token request accepted | Valid client credentials and scope. — An API key is the pair client_id and client_secret.',
  },
  'token.held-scopes': {
    level: 'contract',
    statement: 'a token request for a scope the key does not hold gets no token',
    section: 'States and transitions; Authentication 2',
    quote:
      'Token request accepted | Valid client credentials and scope. — Additional scopes are obtained by requesting a new key with the needed scopes, or by asking for scopes to be added to an existing key.',
  },
  'token.grant-type': {
    level: 'contract',
    statement: 'a token request whose grant_type is not client_credentials gets no access token for the client credentials',
    section: 'Endpoints, 1. Request an access token',
    quote: 'grant_type | string | yes | Must be `client_credentials`.',
  },
  'token.scope-list': {
    level: 'contract',
    statement: 'several scopes requested as a comma-delimited list are granted together',
    section: 'Endpoints, 1. Request an access token; Authentication 5',
    quote: 'scope | string | yes | Scopes requested, comma-delimited list. — The token request passes scopes as a comma-delimited list.',
  },
  'platform.token-refusal-status': {
    level: 'platform',
    statement: 'wrong credentials and unheld scopes are refused with 403',
    basis: 'platform-docs',
    note: 'The document shows no status for refused token requests; the platform answers 403 (RFC 6749 would say 400 or 401).',
  },
  'platform.token-type-case': {
    level: 'platform',
    statement: 'token_type is exactly the lower-case "bearer" of the document’s table',
    basis: 'platform-docs',
    note: 'RFC 6749 reads token_type case-insensitively; the platform writes "bearer".',
    judged: 'every 2xx token response',
    judge: judgeTokenTypeCase,
  },
  'platform.refresh-grant': {
    level: 'platform',
    statement: 'the token endpoint answers grant_type=refresh_token with a new token',
    basis: 'mock',
    note: 'The document says only that a refresh token is issued and is not for API access by external parties.',
  },
  'platform.scope-required': {
    level: 'platform',
    statement: 'a token request without a scope gets no token',
    basis: 'mock',
    note: 'The document marks scope as required of the request but does not say what a request without one gets; RFC 6749 makes scope optional (a service may grant default scopes).',
  },
  'platform.token-form-only': {
    level: 'platform',
    statement: 'a token request with a JSON body instead of the form gets no token',
    basis: 'mock',
    note: 'The document names the form content type; a service may read a JSON body as well.',
  },
});

/** The body of a served answer of the token endpoint, as an object (empty when it is none); undefined for any other exchange. */
export function tokenBody(exchange: Exchange): Readonly<Record<string, unknown>> | undefined {
  if (exchange.origin !== 'auth' || !isServed(exchange)) return undefined;
  const body = exchange.body;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

function judgeTokenResponse(exchange: Exchange, context: JudgeContext): Judgement {
  if (tokenBody(exchange) === undefined) return undefined;
  const validate = context.validators.validateTokenResponse;
  return held(
    validate(exchange.body),
    'access_token, token_type bearer, expires_in (integer seconds) and refresh_token',
    () => `\n${formatErrors(validate.errors, exchange.body)}`,
  );
}

function judgeTokenTypeCase(exchange: Exchange): Judgement {
  const type = tokenBody(exchange)?.token_type;
  return typeof type === 'string' ? held(type === 'bearer', 'token_type "bearer"', () => `"${type}"`) : undefined;
}
