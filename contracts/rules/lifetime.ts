/**
 * The rules of a token's lifetime (document, States and transitions; Authentication 7; Resources,
 * Access token response). expires_in is judged on every served answer of the token endpoint.
 */
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
    statement: 'expires_in is a positive whole number of seconds, not above the configured lifetime',
    section: 'Resources, Access token response; Authentication 7',
    quote: 'expires_in | integer | Lifetime in seconds. — Default token lifetime is 60 days (`expires_in` is in seconds).',
    judged: 'every 2xx token response; the bound where the configured lifetime is known',
    judge: judgeExpiresIn,
  },
  'platform.fresh-expires-in': {
    level: 'platform',
    statement: 'a token new to this run has expires_in within a few seconds of the configured lifetime',
    basis: 'platform-docs',
    note: 'The platform counts expires_in down from the lifetime (5183999 for 60 days); a service that hands back a live token may count further down.',
  },
});

function judgeExpiresIn(exchange: Exchange, context: JudgeContext): Judgement {
  const expiresIn = tokenBody(exchange)?.expires_in;
  const lifetime = context.lifetimeSeconds;
  if (typeof expiresIn !== 'number') return undefined;
  // Unknown, the lifetime bounds nothing: a positive whole number of seconds holds for every lifetime an organization sets.
  const whole = Number.isInteger(expiresIn) && expiresIn > 0;
  if (lifetime === undefined) return held(whole, 'expires_in a positive whole number of seconds', () => String(expiresIn));
  return held(whole && expiresIn <= lifetime, `expires_in a whole number from 1 to the configured lifetime ${lifetime}`, () => String(expiresIn));
}
