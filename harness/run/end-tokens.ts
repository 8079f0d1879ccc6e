/**
 * The end of a worker: every token it was issued is logged out, its refresh token with it, so that none is left valid on the target. An access token that ended
 * alone (a test logged it out without its refresh token, or it expired) may leave its refresh token alive: that one is traded for a token, and both end with
 * one logout.
 */
import { ApiClient } from '../client/api.ts';
import { rateWaitBoundMs } from '../client/throttle.ts';
import { issuedTokenOf, Tokens } from '../client/tokens.ts';
import { Transport } from '../client/transport.ts';
import type { TokenCleanup, WorkerSession } from './session.ts';

/**
 * Refused trades of a refresh token after which the logout stops trading: each refused refresh counts
 * as a failed token request, and a service may throttle a client for those (the mock does after 10 failures a minute).
 */
const TRADE_REFUSALS = 3;

/**
 * Logs out every token of `session`, waiting one window of the target's rate at most (a @quota test
 * may leave the budget spent; `beforeWait` is told first): a client refused for longer keeps its tokens, reported as not logged out.
 */
export async function endTokens(session: WorkerSession, beforeWait: (ms: number) => void): Promise<TokenCleanup> {
  const target = session.target;
  const transport = new Transport({ governor: session.governor, maxWaitMs: rateWaitBoundMs(target.rate), beforeWait });
  const api = new ApiClient(transport, session, { current: () => Promise.reject(new Error('no bearer')), renew: async () => undefined });
  const tokens = new Tokens(transport, session);
  let refusals = target.capabilities.refreshGrant ? 0 : TRADE_REFUSALS;
  return session.logOutAll(async (token, held) => {
    const status = (await api.logout({ token }, held.refreshToken)).status;
    if (!(status === 401 || status === 403) || refusals >= TRADE_REFUSALS || !held.refreshToken || session.endedRefresh.has(held.refreshToken)) return status;
    const answer = await tokens.refresh(held.refreshToken, held.clientId === target.provider?.clientId ? 'provider' : 'organization');
    const traded = issuedTokenOf(answer, [], held.clientId);
    if (answer.status < 200 || answer.status > 299 || !traded.ok) refusals++;
    else await api.logout({ token: traded.value.accessToken }, traded.value.refreshToken);
    return status;
  });
}
