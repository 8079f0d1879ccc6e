/**
 * Probes of bearer authentication and scopes (profile groups `auth` and `errors`). A scope's reach is
 * learnt with a token holding only that scope, so an option needs the key to hold the scope: a scope
 * LP_SCOPES does not list leaves its option unknown.
 */
import type { ApiResponse } from '../client/transport.ts';
import { apiErrorShape } from './classify.ts';
import { isRefusal, isSuccess, type Probe } from './session.ts';

/** A token no service issued: long enough to be read as one, so it is refused as unknown, not as malformed. */
const UNKNOWN_TOKEN = 'profileProbeNoSuchToken0123456789abcdefABCDEF';

export async function probeAuth(p: Probe): Promise<ApiResponse> {
  const held = p.target.client.scopes;
  const unauthenticated = p.seen(await p.api.list('listContent', { limit: 1 }, { token: UNKNOWN_TOKEN }));
  if (unauthenticated.status === 401 || unauthenticated.status === 403) {
    p.decide('auth.unauthenticatedStatus', unauthenticated.status, 'GET content with a token the service never issued', unauthenticated);
  } else p.unknown('auth.unauthenticatedStatus', `a token the service never issued got ${unauthenticated.status}`, unauthenticated);

  // missingScopeStatus: a token of the other list's scope only.
  const other = held.find((s) => s.startsWith('users:'));
  const contentScope = held.find((s) => s.startsWith('content:'));
  if (other !== undefined || contentScope !== undefined) {
    const [scope, endpoint] = other !== undefined ? [other, 'listContent' as const] : [contentScope as string, 'listUsers' as const];
    const token = await p.issue([scope]);
    const refused = p.seen(await p.api.list(endpoint, { limit: 1 }, { token: token.accessToken }));
    if ([401, 403, 404].includes(refused.status)) p.decide('auth.missingScopeStatus', refused.status, `a token holding only ${scope} on ${endpoint}`, refused);
    else p.unknown('auth.missingScopeStatus', `a token holding only ${scope} got ${refused.status} on ${endpoint}`, refused);
  } else p.unknown('auth.missingScopeStatus', 'the key holds no content or users scope (LP_SCOPES) to ask the other list with');

  await acceptedScopes(p, 'auth.contentScopes', 'content', 'listContent');
  await acceptedScopes(p, 'auth.usersScopes', 'users', 'listUsers');
  return unauthenticated;
}

/** Whether `<resource>:write` alone lists too (`<resource>:read` always does: the reference notes and the schema). */
async function acceptedScopes(
  p: Probe,
  option: 'auth.contentScopes' | 'auth.usersScopes',
  resource: string,
  endpoint: 'listContent' | 'listUsers',
): Promise<void> {
  const write = `${resource}:write`;
  if (!p.target.client.scopes.includes(write)) return p.unknown(option, `the key does not hold ${write} (LP_SCOPES), so a token of it alone cannot be tried`);
  const token = await p.issue([write]);
  const answer = p.seen(await p.api.list(endpoint, { limit: 1 }, { token: token.accessToken }));
  if (isSuccess(answer)) return p.decide(option, [`${resource}:read`, write], `a token holding only ${write} lists ${resource}`, answer);
  if (isRefusal(answer)) return p.decide(option, [`${resource}:read`], `a token holding only ${write} is refused`, answer);
  p.unknown(option, `a token holding only ${write} got ${answer.status}`, answer);
}

/** errors.body, from the unauthenticated answer and (to tell ASP.NET apart) a refused query's. */
export function decideErrorBody(p: Probe, unauthenticated: ApiResponse): void {
  const refusal = p.refusals[0];
  const shape = apiErrorShape(unauthenticated, refusal);
  const evidence = refusal === undefined ? [unauthenticated] : [unauthenticated, refusal];
  if (shape !== undefined) p.decide('errors.body', shape, 'the body of the refused unknown token (and of a refused query, where one was met)', ...evidence);
  else p.unknown('errors.body', 'the error body is of none of the shapes a profile names', ...evidence);
}
