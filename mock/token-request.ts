/**
 * Reading a token request (document, Request an access token; RFC 6749 §2.3, §3.2, §4.4): the form
 * fields (and, where the profile accepts it, the same fields as a JSON object), the client
 * credentials in the form or by HTTP Basic (not both), and the scope list. Each refusal is an OAuth
 * error saying what was wrong and what was expected.
 */
import { parseScopeList } from '../contracts/scopes.ts';
import type { OAuthError } from './errors.ts';
import { isPlainObject, mediaType, parseJsonBody } from './http.ts';

const FORM = 'application/x-www-form-urlencoded';
const FIELDS = ['grant_type', 'client_id', 'client_secret', 'scope', 'refresh_token'] as const;
type Field = (typeof FIELDS)[number];
export type TokenFields = Partial<Record<Field, string>>;

export interface Credentials {
  readonly id: string;
  readonly secret: string;
}

const BASIC = /^basic +([A-Za-z0-9+/]+=*) *$/i;
const BASIC_SCHEME = /^basic(?: |$)/i;

export const invalidRequest = (description: string): OAuthError => ({ status: 400, error: 'invalid_request', description });

/**
 * The fields of the body, or why it is refused: a form body always; a JSON object too when
 * `acceptJson` (the document names the form; a service may read JSON as well); and, when
 * `mislabelledForm`, a body labelled JSON that is not a JSON object but reads as a form (some clients
 * send the form with the wrong label, and a service may read bodies by what they hold).
 */
export function readTokenFields(contentType: string | undefined, body: Buffer, acceptJson: boolean, mislabelledForm = false): TokenFields | OAuthError {
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

/** Form decoding (`+` is a space), undefined for broken percent-encoding: a query's parts, and (RFC 6749 appendix B) the Basic user and password. */
export function formDecode(text: string): string | undefined {
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

/** The client credentials, from the Basic header or the body (RFC 6749 §2.3.1: one way, not both). */
export function readCredentials(authorization: string | undefined, fields: TokenFields): Credentials | OAuthError {
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

/**
 * The scopes of a scope field. The document says comma-delimited; with `comma-or-space` spaces separate
 * too (some clients send them so). With `comma`, a space is part of the scope name, which no key holds.
 */
export function readScopes(text: string, separators: 'comma' | 'comma-or-space'): string[] {
  if (separators === 'comma-or-space') return parseScopeList(text);
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const scope = part.trim();
    if (scope !== '') seen.add(scope);
  }
  return [...seen];
}
