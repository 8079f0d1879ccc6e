/**
 * Document, state table (token valid → time passes → token expired when its age reaches its lifetime) and Authentication 7 (`expires_in` is the lifetime in
 * seconds). Needs the control plane to move the target's clock; @serial because moving it affects every token of the target. A refused token gets a 4xx and no
 * data (contract; the platform's 401 a platform rule).
 */
import { checks, expect, test } from './fixtures/index.ts';

test.describe('a token', checks(['lifetime.expiry'], { needs: ['control'], serial: true }), () => {
  test('still authenticates a minute before its lifetime ends', checks('lifetime.expires-in-bound'), async ({ api, tokens, control }) => {
    const token = await tokens.own();
    // A minute short, not a second: the real seconds a loaded machine lets pass between the token's
    // issue and this request count on the target's clock too, and must not read as an early expiry.
    await control.advance(token.expiresIn - 60);
    // Refused before the expires_in it was issued with has passed: expires_in is not its lifetime.
    expect(await api.list('listContent', { limit: 1 }, { token: token.accessToken })).toHaveStatus(200, 'lifetime.expires-in-bound');
  });
  test('is refused once its lifetime has passed', checks('platform.unauthenticated-status'), async ({ api, tokens, control, verdict }) => {
    const token = await tokens.own();
    // Two seconds past expires_in: expires_in may be counted down by a second from the lifetime.
    await control.advance(token.expiresIn + 2);
    verdict.refusal('lifetime.expiry', await api.list('listContent', { limit: 1 }, { token: token.accessToken }));
  });
});
