/** Requests to the API (token, list, logout) and test control, thin k6 glue; each has a `name` tag, else each `next` cursor would be its own metric series. */
import { validateTokenResponse } from 'generated:validators';
import exec from 'k6/execution';
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { Counter } from 'k6/metrics';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { TOKEN_REFUSAL_STATUSES } from '../../contracts/open-behaviours.ts';
import { exchangeOf } from '../lib/checks.ts';
import type { LoadEnv } from '../lib/env.ts';
import { METRICS } from '../lib/metrics.ts';
import { encodeQuery, joinUrl } from '../lib/url.ts';

export type Response = RefinedResponse<ResponseType | undefined>;

/** What setup() hands the VUs. It holds the tokens: handleSummary never writes setup data out. */
export type Credentials = { readonly accessToken: string; readonly refreshToken: string | undefined };

export type TokenResult =
  | { ok: true; credentials: Credentials; response: Response }
  /** `refused`: the token endpoint refused the key itself (one of TOKEN_REFUSAL_STATUSES): most likely our settings, not the service. */
  | { ok: false; reason: string; refused: boolean; response: Response };

const keyRefusals = new Counter(METRICS.keyRefused);

/** Stops the run when the key does not work: most likely our settings, so no rule is blamed; the reports say why nothing was checked. */
export function stopForRefusedKey(reason: string): never {
  keyRefusals.add(1);
  return abortTest(reason);
}

/** Stops the whole run with a sentence (k6 exit code 108); `never` so that callers need no return after it. */
export function abortTest(reason: string): never {
  exec.test.abort(reason);
  throw new Error(reason);
}

/** POST {auth_url}/oauth/token with the client credentials (document, endpoint 1). */
export function requestToken(env: LoadEnv, name = 'POST /oauth/token (token)'): TokenResult {
  const url = joinUrl(env.authUrl, ENDPOINTS.token.path);
  const form = encodeQuery({ grant_type: 'client_credentials', client_id: env.clientId, client_secret: env.clientSecret, scope: env.scopes.join(',') });
  const response = http.post(url, form, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, tags: { name } });
  // The request is named without its body: the form holds the client secret.
  const request = `POST ${url}`;
  const refusals: readonly number[] = TOKEN_REFUSAL_STATUSES;
  const check = 'check LP_CLIENT_ID and LP_CLIENT_SECRET (and LP_SCOPES: a scope the key does not hold is refused too)';
  if (refusals.includes(response.status))
    return { ok: false, refused: true, reason: `the key did not work: ${request} answered ${response.status}; ${check}.`, response };
  // The document shows no status for an accepted request: any 2xx with a token in it is one.
  if (response.status < 200 || response.status > 299)
    return { ok: false, refused: false, reason: `expected a 2xx from ${request}, got ${response.status}`, response };
  const body = exchangeOf(response, 'auth').body;
  // How it breaks is token.response's, judged with the other per-response rules.
  if (!validateTokenResponse(body)) return { ok: false, refused: false, reason: `the token response of ${request} does not match its schema`, response };
  const token = body as { access_token: string; refresh_token?: unknown };
  const refreshToken = typeof token.refresh_token === 'string' ? token.refresh_token : undefined;
  return { ok: true, credentials: { accessToken: token.access_token, refreshToken }, response };
}

export function apiGet(url: string, credentials: Credentials, name: string): Response {
  return http.get(url, { headers: { Authorization: `Bearer ${credentials.accessToken}` }, tags: { name } });
}

/** POST {base_url}/oauth/token with the bearer token (document, endpoint 2); the refresh token, if any, expires too. */
export function logout(env: LoadEnv, credentials: Credentials, name = 'POST /oauth/token (logout)'): Response {
  const body = credentials.refreshToken === undefined ? '{}' : JSON.stringify({ refresh_token: credentials.refreshToken });
  const headers = { Authorization: `Bearer ${credentials.accessToken}`, 'Content-Type': 'application/json' };
  return http.post(joinUrl(env.baseUrl, ENDPOINTS.logout.path), body, { headers, tags: { name } });
}
