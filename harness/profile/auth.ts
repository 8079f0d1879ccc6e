/**
 * Probes of the token endpoint, logout, the api origin's bearer authentication and scopes, and the users list (profile groups `tokens`, `logout`, `auth`,
 * `errors` and `users`).
 *
 * Wrong credentials are sent under an unknown client_id, never the key's own with a wrong secret: a service that locks a key out after failed attempts must not
 * lock out the key under test. Each logout probe ends a token of its own: `{}` (which every legal service takes) for the answer, then an empty body, then a
 * body that is no JSON. The auth probes come after the query probes: a refused query's body tells ASP.NET's error bodies apart. A scope's reach is learnt with
 * a token holding only that scope, so an option needs the key to hold the scope (LP_SCOPES).
 */
import { formatPeriod } from '../../contracts/duration.ts';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { TOKEN_REFUSAL_STATUSES, UNAUTHENTICATED_STATUSES } from '../../contracts/open-behaviours.ts';
import { SCOPES } from '../../contracts/scopes.ts';
import type { ApiErrorBodyShape, TokenErrorBodyShape } from '../../schemas/types.ts';
import type { IssuedToken } from '../run/session.ts';
import type { ApiResponse } from '../client/transport.ts';
import { dataOf, isRefusal, isSuccess, outcome, type Probe, statusIn } from './session.ts';

/** A token no service issued: long enough to be read as one, so it is refused as unknown, not as malformed. */
const UNKNOWN_TOKEN = 'profileProbeNoSuchToken0123456789abcdefABCDEF';
const USERS_LIMIT = 5;
/** Attributes only the platform's users carry: one of them tells the platform's set from the minimal one. */
const PLATFORM_ATTRIBUTES = ['first-name', 'last-name', 'full-name', 'organization-email', 'permission-role', 'profile-visibility', 'employee-id'];

/** The first token of the run, every other probe reads with it: its token_type and expires_in. */
export async function mainToken(p: Probe): Promise<IssuedToken> {
  const token = await p.tokens.issue();
  const answer = p.answers.at(-1)!;
  const type = token.tokenType;
  p.decide('tokens.tokenType', type === 'bearer' || type === 'Bearer' ? type : undefined, `token_type of a token issued was "${type.slice(0, 20)}"`, answer);
  // Without LP_TOKEN_LIFETIME, lifetimes are set in whole minutes (60 days, an hour): the next whole minute is the lifetime.
  const configured = p.target.tokenLifetimeSeconds;
  const lifetime = configured ?? Math.ceil(token.expiresIn / 60) * 60;
  const short = lifetime - token.expiresIn;
  // A countdown is a few seconds short of the configured lifetime, or one second short of a whole minute.
  const form = short === 0 ? 'lifetime' : short >= 1 && short <= (configured === undefined ? 1 : 5) ? 'countdown' : undefined;
  const against = configured === undefined ? `${lifetime} s, a whole number of minutes` : `the configured lifetime ${lifetime} s (LP_TOKEN_LIFETIME)`;
  if (form === undefined) {
    const why = `expires_in ${token.expiresIn} is neither ${against} nor just below it; LP_TOKEN_LIFETIME tells the lifetime`;
    p.unknown(['tokens.expiresIn', 'tokens.lifetime'], why, answer);
  } else {
    const basis = `expires_in ${token.expiresIn} is ${short === 0 ? '' : `${short} s short of `}${against}`;
    p.decide('tokens.expiresIn', form, basis, answer);
    p.decide('tokens.lifetime', formatPeriod(lifetime), basis, answer);
  }
  p.unknown('tokens.requestLimit', 'a limit on token requests shows only under a burst of them, which the prober does not send');
  return token;
}

export async function probeTokens(p: Probe, mainToken: string): Promise<void> {
  const { clientId, scopes: held, unheldScopes } = p.target.client;
  const request = p.tokens.request;
  const form = (scopes?: readonly string[]) => p.tokens.form(scopes);
  const again = await p.tokens.issue();
  const reused = again.accessToken === mainToken;
  const basis = `a second request for the same scopes got ${reused ? 'the same' : 'a new'} access token`;
  p.decide('tokens.reuse', reused ? 'live-token' : 'fresh', basis, p.answers.at(-1)!);
  const bad = await request({ ...form(), client_id: `${clientId}-profile-probe-unknown`, client_secret: 'profile-probe-wrong-secret' });
  p.settle('tokens.badCredentialsStatus', 'a token request with an unknown client_id', statusIn(bad, TOKEN_REFUSAL_STATUSES), bad);
  const shape = isRefusal(bad) ? tokenErrorShape(bad) : undefined;
  const body = `the refused token request with an unknown client_id has a body of ${shape ?? 'none of the shapes a profile names'}`;
  p.decide('tokens.errorBody', shape, body, bad);
  // A scope the key does not hold: one LP_UNHELD_SCOPES declares, else a guess from LP_SCOPES (a key holding it after all leaves the option unknown).
  const unheld = unheldScopes[0] ?? SCOPES.find((scope) => !held.includes(scope)) ?? 'profile_probe:read';
  const answer = await request(form([unheld]));
  if (isSuccess(answer))
    p.unknown('tokens.unheldScopeStatus', `the key holds ${unheld} after all (LP_SCOPES does not list it): no scope left to refuse`, answer);
  else p.settle('tokens.unheldScopeStatus', `a token request for ${unheld}, which the key does not hold,`, statusIn(answer, TOKEN_REFUSAL_STATUSES), answer);
  const json = await request(form(), { json: true });
  p.settle('tokens.acceptJsonBody', 'a valid token request with a JSON body', outcome(json, true, false), json);
  const mislabelled = await request(form(), { contentType: 'application/json' });
  p.settle('tokens.mislabelledForm', 'a valid form body labelled Content-Type: application/json', outcome(mislabelled, 'read-as-form', 'refuse'), mislabelled);
  // Scopes separated by a space: with commas only, "a b" is one scope no key holds.
  const first = held[0] ?? 'content:read';
  const spaced = await request({ ...form([first]), scope: `${first} ${held[1] ?? first}` });
  p.settle('tokens.scopeSeparators', 'a token request with space-separated scopes', outcome(spaced, 'comma-or-space', 'comma'), spaced);
  const refreshed = await p.tokens.refresh(again.refreshToken);
  p.settle('tokens.refreshGrant', 'grant_type=refresh_token with the refresh token of a token issued', outcome(refreshed, true, false), refreshed);
}

/** A logout of a token of its own with `body` ('': none at all; Playwright would send an empty string as the JSON text ""). */
async function logout(p: Probe, body: string): Promise<ApiResponse> {
  const scope = p.target.client.scopes[0];
  const token = await p.tokens.issue(scope === undefined ? undefined : [scope]);
  const response = await p.transport.send({
    method: 'POST',
    url: `${p.target.baseUrl}${ENDPOINTS.logout.path}`,
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token.accessToken}` },
    ...(body === '' ? {} : { body }),
    clientId: p.target.client.clientId,
  });
  if (isSuccess(response)) p.session.ledger.delete(token.accessToken);
  return response;
}

export async function probeLogout(p: Probe): Promise<void> {
  const plain = await logout(p, '{}');
  const bodied = plain.text.trim() !== '';
  const response = plain.status === 204 ? '204' : plain.status === 200 ? (bodied ? '200-json' : '200-empty') : undefined;
  p.settle('logout.response', `a logout with {} (${bodied ? 'a' : 'no'} body)`, response, plain);
  const empty = await logout(p, '');
  if (!isSuccess(empty)) return p.settle('logout.request', 'a logout with an empty body', isRefusal(empty) ? 'json-object' : undefined, empty);
  const text = await logout(p, 'profile probe: not JSON');
  p.settle('logout.request', 'a logout with an empty body was served; one with a body that is no JSON', outcome(text, 'any', 'empty-or-json'), empty, text);
}

export async function probeAuth(p: Probe): Promise<void> {
  const held = p.target.client.scopes;
  const refusedToken = await p.api.list('listContent', { limit: 1 }, { token: UNKNOWN_TOKEN });
  p.settle('auth.unauthenticatedStatus', 'GET content with a token the service never issued', statusIn(refusedToken, UNAUTHENTICATED_STATUSES), refusedToken);
  const refusal = p.refusals[0];
  const shape = apiErrorShape(refusedToken, refusal);
  const basis = `the body of the refused unknown token (and of a refused query, where one was met) is ${shape ?? 'of none of the shapes a profile names'}`;
  p.decide('errors.body', shape, basis, ...[refusedToken, refusal].filter((a) => a !== undefined));
  // missingScopeStatus: a token of the other list's scope only.
  const users = held.find((s) => s.startsWith('users:'));
  const content = held.find((s) => s.startsWith('content:'));
  const [scope, endpoint] = users !== undefined ? [users, 'listContent' as const] : [content, 'listUsers' as const];
  if (scope === undefined) p.unknown('auth.missingScopeStatus', 'the key holds no content or users scope (LP_SCOPES) to ask the other list with');
  else {
    const refused = await p.listAs(scope, endpoint, { limit: 1 });
    p.settle('auth.missingScopeStatus', `a token holding only ${scope} on ${endpoint}`, statusIn(refused, [401, 403, 404]), refused);
  }
  // Whether `<resource>:write` alone lists too (`<resource>:read` always does: the reference notes and the schema).
  for (const [option, resource, endpoint] of [
    ['auth.contentScopes', 'content', 'listContent'],
    ['auth.usersScopes', 'users', 'listUsers'],
  ] as const) {
    const write = `${resource}:write`;
    if (!held.includes(write)) p.unknown(option, `the key does not hold ${write} (LP_SCOPES), so a token of it alone cannot be tried`);
    else {
      const answer = await p.listAs(write, endpoint, { limit: 1 });
      p.settle(option, `a token holding only ${write} listing ${resource}`, outcome(answer, [`${resource}:read`, write], [`${resource}:read`]), answer);
    }
  }
}

/**
 * The users list: the type of its resource objects, the platform's attributes or a name and an email
 * only, and whether it reads `limit` (a page of at most 5 for limit=5) or not (a refusal, or a larger page).
 */
export async function probeUsers(p: Probe): Promise<void> {
  const scope = p.target.client.scopes.find((s) => s.startsWith('users:'));
  if (scope === undefined) return p.unknown(['users.type', 'users.attributes', 'users.limit'], 'the key holds no users scope (LP_SCOPES)');
  const answer = await p.listAs(scope, 'listUsers', { limit: USERS_LIMIT });
  const users = dataOf(answer);
  const count = users.length;
  // A refused query (not a refused token or rate) says limit is unknown there, as a larger page does.
  const limit = answer.status === 200 && count >= 1 ? (count <= USERS_LIMIT ? 'platform' : 'unknown') : p.refusals.includes(answer) ? 'unknown' : undefined;
  p.settle('users.limit', `GET users?limit=${USERS_LIMIT} (${count} users on the page)`, limit, answer);
  const first = users[0];
  if (answer.status !== 200 || first === undefined)
    return p.unknown(['users.type', 'users.attributes'], `GET users got ${answer.status} and ${count} users`, answer);
  const type = first.type;
  p.decide('users.type', type === 'users' || type === 'user' ? type : undefined, `type of the first user is ${JSON.stringify(type)}`, answer);
  const names = Object.keys((first.attributes as object | undefined) ?? {});
  const platform = names.some((n) => PLATFORM_ATTRIBUTES.includes(n));
  const minimal = names.length <= 3 && names.some((n) => /mail/i.test(n));
  const attributes = platform ? 'platform' : minimal ? 'minimal' : undefined;
  p.decide('users.attributes', attributes, `attributes: ${names.join(', ')}${attributes ? '' : ", neither the platform's nor a name and an email"}`, answer);
}

type Answer = Pick<ApiResponse, 'text' | 'body' | 'headers'>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The shape of an error body, by its members (every shape of schemas/profile.schema.json `$defs`): an `errors` array (the platform's), `error` with
 * `error_description` (RFC 6749 and 6750 alike, told apart by the origin), an `errors` object beside `title` (ASP.NET's validation problem), `title` and
 * `status` (problem details), or no JSON: empty, HTML or text. Undefined: none of them.
 */
function shapeOf(response: Answer): ApiErrorBodyShape | 'oauth' | undefined {
  const text = response.text.trim();
  if (text === '') return 'empty';
  const type = (response.headers['content-type'] ?? '').toLowerCase();
  if (response.body === undefined) return type.includes('html') || /^<(?:!doctype|html)/i.test(text) ? 'html' : 'text';
  const body = response.body;
  if (!isObject(body)) return undefined;
  if (Array.isArray(body.errors)) return 'errors-array';
  if (typeof body.error === 'string') return 'oauth';
  if (isObject(body.errors) && typeof body.title === 'string') return 'aspnet-validation';
  // ASP.NET writes its other errors as problem details too, with an RFC section as `type`; only its 400 tells them apart (apiErrorShape).
  return typeof body.title === 'string' && body.status !== undefined ? 'problem-json' : undefined;
}

/** The shape of a refused token request's body; undefined when it is none of the profile's shapes. */
export function tokenErrorShape(response: Answer): TokenErrorBodyShape | undefined {
  const shape = shapeOf(response);
  return shape === 'rfc6750' || shape === 'aspnet-validation' ? undefined : shape;
}

/**
 * The shape of an api-origin error body. `refusal` is a refused query's body where one was met: a
 * 401 in problem details is ASP.NET's too, and only its validation problem on a 400 shows which.
 */
export function apiErrorShape(unauthenticated: Answer, refusal?: Answer): ApiErrorBodyShape | undefined {
  const shape = shapeOf(unauthenticated);
  if (shape === 'oauth') return 'rfc6750';
  return shape === 'problem-json' && refusal !== undefined && shapeOf(refusal) === 'aspnet-validation' ? 'aspnet-validation' : shape;
}
