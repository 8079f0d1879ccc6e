/**
 * Probe of the users list (profile group `users`): the type its resource objects carry, whether
 * they hold the attributes the platform documents or a name and an email only, and whether it reads
 * the platform's `limit` (a page of at most 5 for limit=5) or not (a refusal, or a larger page).
 */
import { dataOf, isRefusal, type Probe } from './session.ts';

/** The page size the probe asks for. */
const PROBE_LIMIT = 5;

/** Attributes only the platform's users carry: one of them tells the platform's set from the minimal one. */
const PLATFORM_ATTRIBUTES = ['first-name', 'last-name', 'full-name', 'organization-email', 'permission-role', 'profile-visibility', 'employee-id'];

export async function probeUsers(p: Probe): Promise<void> {
  const scope = p.target.client.scopes.find((s) => s.startsWith('users:'));
  if (scope === undefined) return p.unknown(['users.type', 'users.attributes', 'users.limit'], 'the key holds no users scope (LP_SCOPES)');
  const answer = await p.api.list('listUsers', { limit: PROBE_LIMIT }, { token: (await p.issue([scope])).accessToken });
  const users = dataOf(answer);
  const count = users.length;
  // A refusal other than of the token or the rate (401, 403, 429) is of the query: limit is not known.
  const refused = isRefusal(answer) && ![401, 403, 429].includes(answer.status);
  const limit = answer.status === 200 && count >= 1 ? (count <= PROBE_LIMIT ? 'platform' : 'unknown') : refused ? 'unknown' : undefined;
  p.settle('users.limit', `GET users?limit=${PROBE_LIMIT} (${count} users on the page)`, limit, answer);

  const first = users[0];
  if (answer.status !== 200 || first === undefined)
    return p.unknown(['users.type', 'users.attributes'], `GET users got ${answer.status} and ${count} users`, answer);
  const type = first.type;
  if (type === 'users' || type === 'user') p.decide('users.type', type, `type of the first user is "${type}"`, answer);
  else p.unknown('users.type', `type of the first user is ${JSON.stringify(type)}`, answer);
  const names = Object.keys((first.attributes as object | undefined) ?? {});
  const attributes = names.some((n) => PLATFORM_ATTRIBUTES.includes(n))
    ? 'platform'
    : names.length <= 3 && names.some((n) => /mail/i.test(n))
      ? 'minimal'
      : undefined;
  if (attributes !== undefined) p.decide('users.attributes', attributes, `attributes: ${names.join(', ')}`, answer);
  else p.unknown('users.attributes', `attributes ${names.join(', ')} are neither the platform's nor a name and an email`, answer);
}
