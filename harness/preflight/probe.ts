/**
 * The preflight's requests to a remote target, at most three with short timeouts, so a wrong setting costs seconds and one sentence naming it: a tokenless list
 * request (is the base URL an API host? asked first, so no token is issued that could not be logged out), a token request (does the key work?), a logout with
 * that token (both URLs name one service; no token left valid). Node's fetch, not Playwright: `npm run load` and `npm run profile` use it too.
 */
import { API_PREFIX, ENDPOINTS } from '../../contracts/endpoints.ts';
import { RETRY_AFTER_RESOLUTION_MS, retryAfterSeconds } from '../../contracts/rate-limit.ts';
import { Redactor } from '../../util/redact.ts';
import { rateWaitBoundMs } from '../client/throttle.ts';
import { sleep } from '../client/transport.ts';
import { formatScopeList } from '../../contracts/scopes.ts';
import type { BreakerTarget } from '../run/breaker.ts';

/** The key, and where each URL came from: the setting a sentence tells the user to fix. */
export interface ProbeTarget extends BreakerTarget {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
}

type ProbeTokens = { readonly issued: number; readonly loggedOut: number; readonly notLoggedOut: number };

export type ProbeResult = { readonly ok: true; readonly tokens: ProbeTokens } | { readonly ok: false; readonly sentence: string; readonly tokens: ProbeTokens };

export interface ProbeOptions {
  /** Connect and response timeout of each request. Default 10 s. */
  readonly timeoutMs?: number;
  /** Injected for tests. Default: the global fetch. */
  readonly fetch?: typeof fetch;
  /** The longest Retry-After of a 429 waited out before the one more try it allows. Default rateWaitBoundMs(): the run's own bound. */
  readonly maxWaitMs?: number;
  /** Injected for tests. Default: setTimeout. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const BODY_CHARS = 160;

type Answer = Pick<Response, 'status' | 'headers'> & { readonly text: string };

/** Runs the three requests; never throws for what the target does. */
export async function probeRemote(target: ProbeTarget, o: ProbeOptions = {}): Promise<ProbeResult> {
  const redactor = new Redactor(target.clientSecret);
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = o.fetch ?? fetch;
  const once = async (url: string, init: RequestInit): Promise<Answer | string> => {
    try {
      const response = await doFetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      return { status: response.status, text: await response.text(), headers: response.headers };
    } catch (error) {
      return failureReason(error, timeoutMs);
    }
  };
  // A 429 is the service's right on every endpoint, the token endpoint's too: its Retry-After, within the run's own
  // bound, is waited out and the request sent once more before the run is refused for it.
  const send = async (url: string, init: RequestInit): Promise<Answer | string> => {
    const answer = await once(url, init);
    if (typeof answer === 'string' || answer.status !== 429) return answer;
    const wait = retryAfterSeconds(answer.headers.get('retry-after') ?? undefined, Date.now());
    if (wait === undefined || wait * 1000 > (o.maxWaitMs ?? rateWaitBoundMs(undefined))) return answer;
    await (o.sleep ?? sleep)(wait * 1000 + RETRY_AFTER_RESOLUTION_MS);
    return once(url, init);
  };
  const short = (answer: Answer) => `${answer.status} ${shortBody(redactor.redact(answer.text))}`.trim();
  const none: ProbeTokens = { issued: 0, loggedOut: 0, notLoggedOut: 0 };
  const left: ProbeTokens = { issued: 1, loggedOut: 0, notLoggedOut: 1 };
  const refuse = (sentence: string, tokens = none): ProbeResult => ({ ok: false, tokens, sentence });
  // 1. The base URL, without a token.
  const listUrl = `${target.baseUrl}${ENDPOINTS.listContent.path}?limit=1`;
  const base = await send(listUrl, { method: 'GET', headers: { accept: 'application/json' } });
  if (typeof base === 'string') return refuse(`${target.baseSetting}: ${target.baseUrl} did not answer (GET ${listUrl}: ${base}); no token was requested.`);
  if (base.status === 429) return refuse(budgetSpent(`GET ${listUrl}`, base, 'no token was requested'));
  if (base.status === 404 && target.baseUrl.endsWith(API_PREFIX)) {
    const fixed = target.baseUrl.slice(0, -API_PREFIX.length);
    return refuse(`${target.baseSetting} ends with ${API_PREFIX}, which the suite adds itself: GET ${listUrl} answered ${short(base)}; set it to ${fixed}.`);
  }
  // The document shows no status for a request without a token: any 4xx but a missing path or method
  // is an API host refusing it (401 and 403 are the usual ones), and a 2xx an API host serving it.
  const refused = base.status >= 400 && base.status <= 499 && base.status !== 404 && base.status !== 405;
  if (!(refused || (base.status >= 200 && base.status <= 299)))
    return refuse(
      `${target.baseSetting}: ${target.baseUrl} does not look like the API host: GET ${listUrl} without a token answered ${short(base)} (expected a refusal like 401); no token was requested.`,
    );
  // 2. A token of the key.
  const tokenUrl = `${target.authUrl}${ENDPOINTS.token.path}`;
  const form = { grant_type: 'client_credentials', client_id: target.clientId, client_secret: target.clientSecret, scope: formatScopeList(target.scopes) };
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const issued = await send(tokenUrl, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
  if (typeof issued === 'string') return refuse(`${target.authSetting}: ${target.authUrl} did not answer (POST ${tokenUrl}: ${issued}).`);
  const accessToken = member(issued.text, 'access_token');
  const refreshToken = member(issued.text, 'refresh_token');
  redactor.add(accessToken, refreshToken);
  // The document shows no status for an accepted token request: any 2xx with a token in it is one.
  if (issued.status < 200 || issued.status > 299 || accessToken === undefined) {
    // A 2xx with a token in a shape we did not read is still a token: none is left unreported.
    return refuse(tokenRefusal(target, tokenUrl, issued, short(issued)), accessToken === undefined ? none : left);
  }
  // 3. Log that token out on the base URL.
  const logoutUrl = `${target.baseUrl}${ENDPOINTS.logout.path}`;
  const logout = await send(logoutUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${accessToken}` },
    // With its refresh token, so that both end (the document: logout expires the refresh token given).
    body: JSON.stringify(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
  });
  if (typeof logout !== 'string' && logout.status >= 200 && logout.status <= 299) return { ok: true, tokens: { issued: 1, loggedOut: 1, notLoggedOut: 0 } };
  const why =
    typeof logout === 'string'
      ? `${target.baseSetting}: ${target.baseUrl} stopped answering (POST ${logoutUrl}: ${logout}); the preflight's token could not be logged out and stays valid until it expires.`
      : logout.status === 401 || logout.status === 403
        ? `${target.authSetting} and ${target.baseSetting} name different services: the base URL refused the token the auth URL issued (POST ${logoutUrl}: ${short(logout)}); that token was not logged out there.`
        : `${target.baseSetting}: the logout of the preflight's token answered ${short(logout)} (POST ${logoutUrl}); that token stays valid until it expires.`;
  return refuse(why, left);
}

function tokenRefusal(target: ProbeTarget, url: string, answer: Answer, shown: string): string {
  if (answer.status === 429) return budgetSpent(`POST ${url}`, answer, 'no token was issued');
  const error = member(answer.text, 'error');
  const description = member(answer.text, 'error_description')?.toLowerCase() ?? '';
  if (error === 'invalid_scope')
    return `LP_SCOPES: the token endpoint refused the scopes ${formatScopeList(target.scopes)} (POST ${url}: ${shown}); list only scopes the key holds.`;
  if (error === 'invalid_client' || error === 'unauthorized_client' || answer.status === 401) {
    // Most services answer an unknown client and a wrong secret alike; name the one the answer tells, else both.
    const secret = /secret/.test(description);
    const id = /unknown|not found|no such|client_id|client id/.test(description);
    const which = secret && !id ? 'LP_CLIENT_SECRET' : id && !secret ? 'LP_CLIENT_ID' : 'LP_CLIENT_ID or LP_CLIENT_SECRET';
    return `${which}: the token endpoint refused the key ${target.clientId} (POST ${url}: ${shown}); no test was started, so the key was not sent again.`;
  }
  if (answer.status === 404) return `${target.authSetting}: ${target.authUrl} has no token endpoint (POST ${url}: ${shown}).`;
  if (answer.status >= 200 && answer.status <= 299)
    return `${target.authSetting}: the token endpoint answered ${shown} without an access_token it could read (POST ${url}); the run needs a token.`;
  return `${target.authSetting}: the token endpoint answered ${shown} to the key ${target.clientId} (POST ${url}).`;
}

function budgetSpent(request: string, answer: Answer, what: string): string {
  const retryAfter = answer.headers.get('retry-after');
  return `LP_CLIENT_ID: the key's rate budget is spent (${request} answered 429${retryAfter === null ? ', no Retry-After' : `, Retry-After: ${retryAfter}`}); ${what}: run again once the window has passed.`;
}

function failureReason(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  return `no response, ${e.cause?.code ?? e.cause?.message ?? e.message ?? String(error)}`;
}

function shortBody(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_CHARS ? `${flat.slice(0, BODY_CHARS)}…` : flat;
}

function member(text: string, name: string): string | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}
