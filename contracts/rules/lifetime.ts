/** The rules of a token's lifetime (document, States and transitions; Authentication 7; Resources, Access token response); expires_in judged on each. */
import { held, type Exchange, type JudgeContext, type Judgement } from './exchange.ts';
import { inArea } from './rule.ts';
import { tokenBody } from './token.ts';

export const LIFETIME_RULES = inArea('lifetime', {
  'lifetime.expiry': {
    level: 'contract',
    statement: 'a token authenticates until its age reaches its lifetime, and not after',
    section: 'States and transitions; Authentication 7',
    quote:
      'token valid | Time passes | Token age reaches its lifetime (default 60 days, configurable per organization) | token expired | Token no longer authenticates.',
  },
  'lifetime.expires-in': {
    level: 'contract',
    statement: 'expires_in is a positive whole number of seconds',
    section: 'Resources, Access token response; Authentication 7',
    quote: 'expires_in | integer | Lifetime in seconds. — Default token lifetime is 60 days (`expires_in` is in seconds).',
    judged: 'every 2xx token response',
    judge: judgeExpiresIn,
  },
  'lifetime.expires-in-bound': {
    level: 'contract',
    statement: 'expires_in is not above the lifetime the organization configured, nor beyond the time the token authenticates',
    section: 'Resources, Access token response; Authentication 7',
    quote:
      'expires_in | integer | Lifetime in seconds. — Default token lifetime is 60 days (`expires_in` is in seconds). An organization can change the duration in its security settings.',
    judged: 'every 2xx token response, where the configured lifetime is known',
    judge: judgeExpiresInBound,
  },
  'platform.fresh-expires-in': {
    level: 'platform',
    statement: 'a token new to this run has expires_in within a few seconds of the configured lifetime',
    basis: 'platform-docs',
    note: 'The platform counts expires_in down from the lifetime (5183999 for 60 days); a service that hands back a live token may count further down.',
  },
});

function judgeExpiresIn(exchange: Exchange): Judgement {
  const expiresIn = tokenBody(exchange)?.expires_in;
  if (typeof expiresIn !== 'number') return undefined;
  return held(Number.isInteger(expiresIn) && expiresIn > 0, 'expires_in a positive whole number of seconds', () => String(expiresIn));
}

/** Only against a lifetime the target is configured with: a default is no configuration, and an organization sets its own. */
function judgeExpiresInBound(exchange: Exchange, context: JudgeContext): Judgement {
  const expiresIn = tokenBody(exchange)?.expires_in;
  const lifetime = context.lifetimeSeconds;
  if (lifetime === undefined || typeof expiresIn !== 'number') return undefined;
  return held(expiresIn <= lifetime, `expires_in not above the configured lifetime ${lifetime}`, () => String(expiresIn));
}
