/**
 * Probes of the token endpoint and of logout (profile groups `tokens` and `logout`). Wrong credentials
 * are sent under an unknown client_id, never the key's own with a wrong secret: a service that locks a
 * key out after failed attempts must not lock out the key under test. Each logout probe ends a token
 * of its own: `{}` (which every legal service takes) for the answer, then an empty body, then a body
 * that is no JSON. Every token issued and not ended by a probe is logged out at the end.
 */
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { TOKEN_REFUSAL_STATUSES } from '../../contracts/open-behaviours.ts';
import { SCOPES } from '../../contracts/scopes.ts';
import type { IssuedToken } from '../client/tokens.ts';
import type { ApiResponse } from '../client/transport.ts';
import { tokenErrorShape } from './classify.ts';
import { isRefusal, isSuccess, outcome, type Probe, statusIn } from './session.ts';

/** The first token of the run, every other probe reads with it: its token_type and expires_in. */
export async function mainToken(p: Probe): Promise<IssuedToken> {
  const token = await p.tokens.issue();
  const answer = p.tokenAnswers[0]!;
  const type = token.tokenType;
  if (type === 'bearer' || type === 'Bearer') p.decide('tokens.tokenType', type, `token_type of a token issued was "${type}"`, answer);
  else p.unknown('tokens.tokenType', `token_type "${type.slice(0, 20)}" is neither "bearer" nor "Bearer"`, answer);

  // Without LP_TOKEN_LIFETIME, lifetimes are set in whole minutes (60 days, an hour): the next whole minute is the lifetime.
  const configured = p.target.tokenLifetimeSeconds;
  const lifetime = configured ?? Math.ceil(token.expiresIn / 60) * 60;
  const short = lifetime - token.expiresIn;
  // A countdown is a few seconds short of the configured lifetime, or one second short of a whole minute.
  const form = short === 0 ? 'lifetime' : short >= 1 && short <= (configured === undefined ? 1 : 5) ? 'countdown' : undefined;
  const against = configured === undefined ? `${lifetime} s, a whole number of minutes` : `the configured lifetime ${lifetime} s (LP_TOKEN_LIFETIME)`;
  if (form !== undefined) p.decide('tokens.expiresIn', form, `expires_in ${token.expiresIn} is ${short === 0 ? '' : `${short} s short of `}${against}`, answer);
  else p.unknown('tokens.expiresIn', `expires_in ${token.expiresIn} is neither ${against} nor just below it; LP_TOKEN_LIFETIME tells the lifetime`, answer);
  return token;
}

export async function probeTokens(p: Probe, mainToken: string): Promise<void> {
  const key = p.target.client;
  const held = key.scopes;
  const request = p.tokens.request;

  const again = await p.tokens.issue();
  const reused = again.accessToken === mainToken;
  const basis = `a second request for the same scopes got ${reused ? 'the same' : 'a new'} access token`;
  p.decide('tokens.reuse', reused ? 'live-token' : 'fresh', basis, p.answers.at(-1)!);

  const bad = await request({ ...p.tokens.form(), client_id: `${key.clientId}-profile-probe-unknown`, client_secret: 'profile-probe-wrong-secret' });
  p.settle('tokens.badCredentialsStatus', 'a token request with an unknown client_id', statusIn(bad, TOKEN_REFUSAL_STATUSES), bad);
  const shape = isRefusal(bad) ? tokenErrorShape(bad) : undefined;
  if (shape !== undefined) p.decide('tokens.errorBody', shape, 'the body of the refused token request with an unknown client_id', bad);
  else p.unknown('tokens.errorBody', 'the refused token request has a body of none of the shapes a profile names', bad);

  // A scope the key does not hold: one LP_UNHELD_SCOPES declares, else a guess from LP_SCOPES (a key holding it after all leaves the option unknown).
  const unheld = key.unheldScopes[0] ?? SCOPES.find((scope) => !held.includes(scope)) ?? 'profile_probe:read';
  const answer = await request(p.tokens.form([unheld]));
  if (isSuccess(answer)) {
    p.unknown('tokens.unheldScopeStatus', `the key holds ${unheld} after all (LP_SCOPES does not list it): no scope left to refuse`, answer);
  } else p.settle('tokens.unheldScopeStatus', `a token request for ${unheld}, which the key does not hold,`, statusIn(answer, TOKEN_REFUSAL_STATUSES), answer);

  const json = await request(p.tokens.form(), { json: true });
  p.settle('tokens.acceptJsonBody', 'a valid token request with a JSON body', outcome(json, true, false), json);
  const mislabelled = await request(p.tokens.form(), { contentType: 'application/json' });
  p.settle('tokens.mislabelledForm', 'a valid form body labelled Content-Type: application/json', outcome(mislabelled, 'read-as-form', 'refuse'), mislabelled);
  // Scopes separated by a space: with commas only, "a b" is one scope no key holds.
  const first = held[0] ?? 'content:read';
  const spaced = await request({ ...p.tokens.form([first]), scope: `${first} ${held[1] ?? first}` });
  p.settle('tokens.scopeSeparators', 'a token request with space-separated scopes', outcome(spaced, 'comma-or-space', 'comma'), spaced);
  const refreshed = await p.tokens.refresh(again.refreshToken);
  p.settle('tokens.refreshGrant', 'grant_type=refresh_token with the refresh token of a token issued', outcome(refreshed, true, false), refreshed);
}

async function logout(p: Probe, body: string): Promise<ApiResponse> {
  const scope = p.target.client.scopes[0];
  const token = await p.tokens.issue(scope === undefined ? undefined : [scope]);
  const response = await p.transport.send({
    method: 'POST',
    url: `${p.target.baseUrl}${ENDPOINTS.logout.path}`,
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token.accessToken}` },
    // No body at all for '': Playwright would send an empty string as the JSON text "".
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
  const what = 'a logout with an empty body was served; one with a body that is no JSON';
  p.settle('logout.request', what, outcome(text, 'any', 'empty-or-json'), empty, text);
}
