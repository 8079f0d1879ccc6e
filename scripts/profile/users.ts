/**
 * Probe of the users list (profile group `users`): the type its resource objects carry, and whether
 * they hold the attributes the platform documents or a name and an email only.
 */
import { dataOf, type Probe } from './session.ts';

/** Attributes only the platform's users carry: one of them tells the platform's set from the minimal one. */
const PLATFORM_ATTRIBUTES = ['first-name', 'last-name', 'full-name', 'organization-email', 'permission-role', 'profile-visibility', 'employee-id'];

export async function probeUsers(p: Probe): Promise<void> {
  const scope = p.target.client.scopes.find((s) => s.startsWith('users:'));
  if (scope === undefined) {
    p.unknown('users.type', 'the key holds no users scope (LP_SCOPES)');
    p.unknown('users.attributes', 'the key holds no users scope (LP_SCOPES)');
    return;
  }
  const token = await p.issue([scope]);
  const answer = p.seen(await p.api.list('listUsers', { limit: 5 }, { token: token.accessToken }));
  const users = dataOf(answer);
  const first = users[0];
  if (answer.status !== 200 || first === undefined) {
    p.unknown('users.type', `GET users got ${answer.status} and ${users.length} users`, answer);
    p.unknown('users.attributes', `GET users got ${answer.status} and ${users.length} users`, answer);
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
