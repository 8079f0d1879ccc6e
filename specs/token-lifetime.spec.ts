/**
 * Document, state table (token valid → time passes → token expired when its age reaches its
 * lifetime) and Authentication 7 (`expires_in` is the lifetime in seconds). Needs the control plane
 * to move the target's clock; @serial because moving it affects every token of the target.
 */
import { UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { expect, TAGS, test } from './fixtures/index.ts';

test.describe('a token', { tag: TAGS.serial }, () => {
  test('still authenticates one second before its lifetime ends', async ({ api, tokens, control }) => {
    const token = await tokens.issue();
    await control.advance(token.expiresIn - 1);
    expect(await api.as(token.accessToken).list('listContent', { limit: 1 })).toHaveStatus(200);
  });

  test('is refused once its lifetime has passed', async ({ api, tokens, control }) => {
    const token = await tokens.issue();
    // Two seconds past expires_in: expires_in may be counted down by a second from the lifetime.
    await control.advance(token.expiresIn + 2);
    expect(await api.as(token.accessToken).list('listContent', { limit: 1 })).toHaveStatus(UNAUTHENTICATED_STATUSES);
  });
});
