/**
 * Probes of the api origin's bearer authentication, scopes and users list (profile groups `auth`,
 * `errors` and `users`), after the query probes (a refused query's body tells ASP.NET's error bodies
 * apart). A scope's reach is learnt with a token holding only that scope, so an option needs the key
 * to hold the scope (LP_SCOPES).
 */
import { UNAUTHENTICATED_STATUSES } from '../../contracts/open-behaviours.ts';
import { apiErrorShape } from './classify.ts';
import { dataOf, outcome, type Probe, statusIn } from './session.ts';

/** A token no service issued: long enough to be read as one, so it is refused as unknown, not as malformed. */
const UNKNOWN_TOKEN = 'profileProbeNoSuchToken0123456789abcdefABCDEF';

export async function probeAuth(p: Probe): Promise<void> {
  const held = p.target.client.scopes;
  const refusedToken = await p.api.list('listContent', { limit: 1 }, { token: UNKNOWN_TOKEN });
  p.settle('auth.unauthenticatedStatus', 'GET content with a token the service never issued', statusIn(refusedToken, UNAUTHENTICATED_STATUSES), refusedToken);
  const refusal = p.refusals[0];
  const evidence = refusal === undefined ? [refusedToken] : [refusedToken, refusal];
  const shape = apiErrorShape(refusedToken, refusal);
  if (shape !== undefined) p.decide('errors.body', shape, 'the body of the refused unknown token (and of a refused query, where one was met)', ...evidence);
  else p.unknown('errors.body', 'the error body is of none of the shapes a profile names', ...evidence);

  // missingScopeStatus: a token of the other list's scope only.
  const users = held.find((s) => s.startsWith('users:'));
  const content = held.find((s) => s.startsWith('content:'));
  const [scope, endpoint] = users !== undefined ? [users, 'listContent' as const] : [content, 'listUsers' as const];
  if (scope === undefined) p.unknown('auth.missingScopeStatus', 'the key holds no content or users scope (LP_SCOPES) to ask the other list with');
  else {
    const refused = await p.api.list(endpoint, { limit: 1 }, { token: (await p.tokens.issue([scope])).accessToken });
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
      const answer = await p.api.list(endpoint, { limit: 1 }, { token: (await p.tokens.issue([write])).accessToken });
      p.settle(option, `a token holding only ${write} listing ${resource}`, outcome(answer, [`${resource}:read`, write], [`${resource}:read`]), answer);
    }
  }
}

const PROBE_LIMIT = 5;
/** Attributes only the platform's users carry: one of them tells the platform's set from the minimal one. */
const PLATFORM_ATTRIBUTES = ['first-name', 'last-name', 'full-name', 'organization-email', 'permission-role', 'profile-visibility', 'employee-id'];

/**
 * The users list: the type of its resource objects, the platform's attributes or a name and an email
 * only, and whether it reads `limit` (a page of at most 5 for limit=5) or not (a refusal, or a larger page).
 */
export async function probeUsers(p: Probe): Promise<void> {
  const scope = p.target.client.scopes.find((s) => s.startsWith('users:'));
  if (scope === undefined) return p.unknown(['users.type', 'users.attributes', 'users.limit'], 'the key holds no users scope (LP_SCOPES)');
  const answer = await p.api.list('listUsers', { limit: PROBE_LIMIT }, { token: (await p.tokens.issue([scope])).accessToken });
  const users = dataOf(answer);
  const count = users.length;
  // A refused query (not a refused token or rate) says limit is unknown there, as a larger page does.
  const limit = answer.status === 200 && count >= 1 ? (count <= PROBE_LIMIT ? 'platform' : 'unknown') : p.refusals.includes(answer) ? 'unknown' : undefined;
  p.settle('users.limit', `GET users?limit=${PROBE_LIMIT} (${count} users on the page)`, limit, answer);

  const first = users[0];
  if (answer.status !== 200 || first === undefined)
    return p.unknown(['users.type', 'users.attributes'], `GET users got ${answer.status} and ${count} users`, answer);
  const type = first.type;
  if (type === 'users' || type === 'user') p.decide('users.type', type, `type of the first user is "${type}"`, answer);
  else p.unknown('users.type', `type of the first user is ${JSON.stringify(type)}`, answer);
  const names = Object.keys((first.attributes as object | undefined) ?? {});
  const platform = names.some((n) => PLATFORM_ATTRIBUTES.includes(n));
  const minimal = names.length <= 3 && names.some((n) => /mail/i.test(n));
  if (platform || minimal) p.decide('users.attributes', platform ? 'platform' : 'minimal', `attributes: ${names.join(', ')}`, answer);
  else p.unknown('users.attributes', `attributes ${names.join(', ')} are neither the platform's nor a name and an email`, answer);
}
