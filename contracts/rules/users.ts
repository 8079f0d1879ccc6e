/** The rules of the users list (document, Endpoints, 4. List users), and the platform's shape of a user. */
import { type Exchange, held, type JudgeContext, type Judgement } from './exchange.ts';
import { otherTypes, pageOf } from './page.ts';
import { inArea } from './rule.ts';

export const USERS_RULES = inArea('users', {
  'users.list': {
    level: 'contract',
    statement: 'GET /api/v2/users answers a token of a key with a users scope with a list envelope of resource objects',
    section: 'Endpoints, 4. List users; What the service does',
    quote: 'Method and path: `GET {base_url}/api/v2/users`. — Lists of resources are returned in pages.',
  },
  'platform.users-shape': {
    level: 'platform',
    statement: 'users are resource objects of type users with the attributes the platform documents',
    basis: 'platform-docs',
    note: 'The document does not show the fields of the user resource.',
    judged: 'every 2xx users page',
    judge: judgeUsersType,
  },
});

function judgeUsersType(exchange: Exchange, context: JudgeContext): Judgement {
  const page = pageOf(exchange, context, 'users');
  if (page === undefined) return undefined;
  const types = otherTypes(page.data, 'users');
  return held(types.length === 0, 'users of type "users"', () => `type ${types.map((t) => JSON.stringify(t)).join(', ')}`);
}
