/**
 * Probe of the users list (profile group `users`): the type its resource objects carry, whether
 * they hold the attributes the platform documents or a name and an email only, and whether it reads
 * the platform's `limit` (a page of at most 5 for limit=5) or not (a refusal, or a larger page).
 */
import { dataOf, type Probe } from './session.ts';
import type { ApiResponse } from '../client/transport.ts';

/** The page size the probe asks for. */
const PROBE_LIMIT = 5;

/** Attributes only the platform's users carry: one of them tells the platform's set from the minimal one. */
const PLATFORM_ATTRIBUTES = ['first-name', 'last-name', 'full-name', 'organization-email', 'permission-role', 'profile-visibility', 'employee-id'];

export async function probeUsers(p: Probe): Promise<void> {
  const scope = p.target.client.scopes.find((s) => s.startsWith('users:'));
  if (scope === undefined) {
    for (const option of ['users.type', 'users.attributes', 'users.limit'] as const) p.unknown(option, 'the key holds no users scope (LP_SCOPES)');
    return;
  }
  const token = await p.issue([scope]);
  const answer = p.seen(await p.api.list('listUsers', { limit: PROBE_LIMIT }, { token: token.accessToken }));
  const users = dataOf(answer);
  const first = users[0];
  decideLimit(p, answer, users.length);
  if (answer.status !== 200 || first === undefined) {
    for (const option of ['users.type', 'users.attributes'] as const) p.unknown(option, `GET users got ${answer.status} and ${users.length} users`, answer);
    return;
  }
  const type = first.type;
  if (type === 'users' || type === 'user') p.decide('users.type', type, `type of the first user is "${type}"`, answer);
  else p.unknown('users.type', `type of the first user is ${JSON.stringify(type)}`, answer);
  const names = Object.keys((first.attributes as object | undefined) ?? {});
  if (names.some((n) => PLATFORM_ATTRIBUTES.includes(n))) p.decide('users.attributes', 'platform', `attributes: ${names.join(', ')}`, answer);
  else if (names.length <= 3 && names.some((n) => /mail/i.test(n))) p.decide('users.attributes', 'minimal', `attributes: ${names.join(', ')}`, answer);
  else p.unknown('users.attributes', `attributes ${names.join(', ')} are neither the platform's nor a name and an email`, answer);
}

/** Statuses that speak of the token or the rate, not of the query. */
const NOT_ABOUT_THE_QUERY = [401, 403, 429];

function decideLimit(p: Probe, answer: ApiResponse, count: number): void {
  if (answer.status === 200 && count >= 1 && count <= PROBE_LIMIT) p.decide('users.limit', 'platform', `limit=${PROBE_LIMIT} gave ${count} users`, answer);
  else if (answer.status === 200 && count > PROBE_LIMIT)
    p.decide('users.limit', 'unknown', `limit=${PROBE_LIMIT} gave ${count} users: limit is ignored`, answer);
  else if (answer.status >= 400 && answer.status <= 499 && !NOT_ABOUT_THE_QUERY.includes(answer.status)) {
    p.decide('users.limit', 'unknown', `limit=${PROBE_LIMIT} was refused with ${answer.status}`, answer);
  } else p.unknown('users.limit', `GET users?limit=${PROBE_LIMIT} got ${answer.status} and ${count} users`, answer);
}
