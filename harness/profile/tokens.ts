/**
 * Probes of the token endpoint (profile group `tokens`). Wrong credentials are sent under an unknown
 * client_id, never the key's own with a wrong secret: a service that locks a key out after failed
 * attempts must not lock out the key under test.
 */
import { SCOPES } from '../../contracts/scopes.ts';
import type { IssuedToken } from '../client/tokens.ts';
import { tokenErrorShape } from './classify.ts';
import { isRefusal, isSuccess, type Probe } from './session.ts';

const REFUSAL_STATUSES = [400, 401, 403];

/** The first token of the run: every other probe reads with it. */
export async function mainToken(p: Probe): Promise<IssuedToken> {
  const token = await p.issue();
  const type = token.tokenType;
  if (type === 'bearer' || type === 'Bearer') p.decide('tokens.tokenType', type, `token_type of a token issued was "${type}"`, p.tokenAnswers[0]!);
  else p.unknown('tokens.tokenType', `token_type "${type.slice(0, 20)}" is neither "bearer" nor "Bearer"`, p.tokenAnswers[0]!);
  decideExpiresIn(p, token);
  return token;
}

function decideExpiresIn(p: Probe, token: IssuedToken): void {
  const answer = p.tokenAnswers[0]!;
  const lifetime = p.target.tokenLifetimeSeconds;
  const expiresIn = token.expiresIn;
  if (lifetime !== undefined) {
    if (expiresIn === lifetime) return p.decide('tokens.expiresIn', 'lifetime', `expires_in ${expiresIn} is the configured lifetime`, answer);
    if (expiresIn < lifetime && expiresIn >= lifetime - 5) {
      return p.decide('tokens.expiresIn', 'countdown', `expires_in ${expiresIn} is the configured lifetime ${lifetime} less the seconds elapsed`, answer);
    }
    return p.unknown(
      'tokens.expiresIn',
      `expires_in ${expiresIn} is neither the configured lifetime ${lifetime} (LP_TOKEN_LIFETIME) nor just below it`,
      answer,
    );
  }
  // Without LP_TOKEN_LIFETIME: lifetimes are set in whole minutes (60 days, an hour), so a whole-minute figure is the lifetime itself.
  if (expiresIn % 60 === 0) return p.decide('tokens.expiresIn', 'lifetime', `expires_in ${expiresIn} is a whole number of minutes`, answer);
  if (expiresIn % 60 === 59) return p.decide('tokens.expiresIn', 'countdown', `expires_in ${expiresIn} is one second short of a whole minute`, answer);
  p.unknown('tokens.expiresIn', `expires_in ${expiresIn} is no whole number of minutes, nor just below one; set LP_TOKEN_LIFETIME to decide`, answer);
}

export async function probeTokens(p: Probe, main: IssuedToken): Promise<void> {
  const key = p.target.client;
  const held = [...key.scopes];

  // reuse: the same scopes asked for again.
  const again = await p.issue();
  const reused = again.accessToken === main.accessToken;
  p.decide(
    'tokens.reuse',
    reused ? 'live-token' : 'fresh',
    reused ? 'a second request for the same scopes got the same access token' : 'a second request for the same scopes got a new access token',
    p.tokenAnswers.at(-1)!,
  );

  // badCredentialsStatus and errorBody: an unknown client_id.
  const bad = await p.tokens.request({ ...p.tokens.form(), client_id: `${key.clientId}-profile-probe-unknown`, client_secret: 'profile-probe-wrong-secret' });
  if (REFUSAL_STATUSES.includes(bad.status)) p.decide('tokens.badCredentialsStatus', bad.status, 'a token request with an unknown client_id', bad);
  else p.unknown('tokens.badCredentialsStatus', `a token request with an unknown client_id got ${bad.status}, not 400, 401 or 403`, bad);
  const shape = isRefusal(bad) ? tokenErrorShape(bad) : undefined;
  if (shape !== undefined) p.decide('tokens.errorBody', shape, 'the body of the refused token request with an unknown client_id', bad);
  else p.unknown('tokens.errorBody', 'the refused token request has a body of none of the shapes a profile names', bad);

  // unheldScopeStatus: a scope the key does not hold: one LP_UNHELD_SCOPES declares, else a guess from
  // LP_SCOPES (a learned profile is not a verdict: a key holding it after all leaves the option unknown).
  const unheld = key.unheldScopes[0] ?? SCOPES.find((scope) => !held.includes(scope)) ?? 'profile_probe:read';
  const unheldAnswer = await p.tokens.request(p.tokens.form([unheld]));
  if (isSuccess(unheldAnswer)) {
    p.adopt(unheldAnswer, [unheld]);
    p.unknown('tokens.unheldScopeStatus', `the key holds ${unheld} after all (LP_SCOPES does not list it): no scope left to refuse`, unheldAnswer);
  } else if (REFUSAL_STATUSES.includes(unheldAnswer.status)) {
    p.decide('tokens.unheldScopeStatus', unheldAnswer.status, `a token request for ${unheld}, which the key does not hold`, unheldAnswer);
  } else p.unknown('tokens.unheldScopeStatus', `a token request for ${unheld} got ${unheldAnswer.status}`, unheldAnswer);

  // acceptJsonBody: the same valid fields as JSON.
  const json = await p.tokens.request(p.tokens.form(), { json: true });
  if (isSuccess(json)) {
    p.adopt(json, held);
    p.decide('tokens.acceptJsonBody', true, 'a valid token request with a JSON body got a token', json);
  } else if (isRefusal(json)) p.decide('tokens.acceptJsonBody', false, 'a valid token request with a JSON body was refused', json);
  else p.unknown('tokens.acceptJsonBody', `a token request with a JSON body got ${json.status}`, json);

  // mislabelledForm: the form body labelled application/json, as some clients send it.
  const mislabelled = await p.tokens.request(p.tokens.form(), { contentType: 'application/json' });
  if (isSuccess(mislabelled)) {
    p.adopt(mislabelled, held);
    p.decide('tokens.mislabelledForm', 'read-as-form', 'a valid form body labelled Content-Type: application/json got a token', mislabelled);
  } else if (isRefusal(mislabelled))
    p.decide('tokens.mislabelledForm', 'refuse', 'a valid form body labelled Content-Type: application/json was refused', mislabelled);
  else p.unknown('tokens.mislabelledForm', `a form body labelled Content-Type: application/json got ${mislabelled.status}`, mislabelled);

  // scopeSeparators: scopes separated by a space. With commas only, "a b" is one scope no key holds.
  const first = held[0] ?? 'content:read';
  const spaced = await p.tokens.request({ ...p.tokens.form([first]), scope: `${first} ${held[1] ?? first}` });
  if (isSuccess(spaced)) {
    p.adopt(spaced, [first]);
    p.decide('tokens.scopeSeparators', 'comma-or-space', 'a token request with space-separated scopes got a token', spaced);
  } else if (isRefusal(spaced)) p.decide('tokens.scopeSeparators', 'comma', 'a token request with space-separated scopes was refused', spaced);
  else p.unknown('tokens.scopeSeparators', `a token request with space-separated scopes got ${spaced.status}`, spaced);

  // refreshGrant: grant_type=refresh_token with the refresh token of the second token.
  const refreshed = await p.tokens.refresh(again.refreshToken);
  if (isSuccess(refreshed)) {
    p.adopt(refreshed, held);
    p.decide('tokens.refreshGrant', true, 'grant_type=refresh_token got a token', refreshed);
  } else if (isRefusal(refreshed)) p.decide('tokens.refreshGrant', false, 'grant_type=refresh_token was refused', refreshed);
  else p.unknown('tokens.refreshGrant', `grant_type=refresh_token got ${refreshed.status}`, refreshed);
}
