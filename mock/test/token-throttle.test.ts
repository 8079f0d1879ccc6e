/**
 * Throttling of repeated failed token requests (mock/token-throttle.ts): 10 failures per minute per
 * client_id by default, then 429 with Retry-After until the window ends, on the virtual clock;
 * other clients are not affected. Guessing is the threat, so while throttled even the right secret
 * gets 429 (a 200 would confirm the guess).
 */
import type { MockServer } from '../app.ts';
import { VirtualClock } from '../clock.ts';
import { Replies } from '../http.ts';
import { DEFAULT_TOKEN_THROTTLE, FailureThrottle, MAX_UNKNOWN_IDS } from '../token-throttle.ts';
import { expect, getToken, json, ORG, PROVIDER, postToken, test } from './http-fixtures.ts';

const LIMIT = DEFAULT_TOKEN_THROTTLE.requests;

const attempt = (mock: MockServer, secret: string, client: { id: string } = ORG) =>
  postToken(mock, { grant_type: 'client_credentials', client_id: client.id, client_secret: secret, scope: 'content:read' });

async function failTimes(mock: MockServer, n: number, client: { id: string } = ORG): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await attempt(mock, `wrong-${i}`, client);
    expect(res.status, `failed attempt ${i + 1} of ${n} for ${client.id}`).toBe(403);
  }
}

test.describe('failed token requests per client_id', () => {
  test(`${LIMIT} failures are answered as such; the next request, right secret included, gets 429 with Retry-After`, async ({ mock }) => {
    await failTimes(mock, LIMIT);
    for (const secret of ['still-wrong', ORG.secret]) {
      const res = await attempt(mock, secret);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('60');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await json(res);
      expect(body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('Too many failed token requests') });
      expect(body.access_token).toBeUndefined();
    }
  });

  test('Retry-After counts down on the virtual clock, and the window ends when it says', async ({ mock }) => {
    await failTimes(mock, LIMIT);
    mock.clock.advance(45);
    expect((await attempt(mock, ORG.secret)).headers.get('retry-after')).toBe('15');
    mock.clock.advance(15);
    expect((await attempt(mock, ORG.secret)).status).toBe(200);
  });

  test('other clients are not affected', async ({ mock }) => {
    await failTimes(mock, LIMIT);
    expect((await attempt(mock, 'x')).status).toBe(429);
    expect((await getToken(mock, 'content:read', PROVIDER)).access_token).toBeTruthy();
    await failTimes(mock, 3, PROVIDER);
  });

  test('tokens already issued keep working while their client is throttled', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    await failTimes(mock, LIMIT);
    expect((await listWith(mock, access_token)).status).toBe(200);
  });

  test('a success clears the failures counted so far', async ({ mock }) => {
    await failTimes(mock, LIMIT - 1);
    expect((await attempt(mock, ORG.secret)).status).toBe(200);
    await failTimes(mock, LIMIT - 1);
    expect((await attempt(mock, ORG.secret)).status).toBe(200);
  });

  test('bad refresh tokens count as failures too', async ({ mock }) => {
    for (let i = 0; i < LIMIT; i++) {
      const res = await postToken(mock, { grant_type: 'refresh_token', refresh_token: `guess-${i}`, client_id: ORG.id, client_secret: ORG.secret });
      expect(res.status).toBe(400);
    }
    expect((await attempt(mock, ORG.secret)).status).toBe(429);
  });

  test('invented client_ids are throttled each on its own', async ({ mock }) => {
    await failTimes(mock, LIMIT, { id: 'nobody' });
    expect((await attempt(mock, 'x', { id: 'nobody' })).status).toBe(429);
    expect((await attempt(mock, 'x', { id: 'nobody-else' })).status).toBe(403);
  });

  test('malformed requests are refused before the throttle and do not count', async ({ mock }) => {
    for (let i = 0; i < LIMIT + 2; i++) expect((await postToken(mock, { client_id: ORG.id, client_secret: 'x' })).status).toBe(400);
    expect((await attempt(mock, ORG.secret)).status).toBe(200);
  });

  test('reset clears the throttle', async ({ mock }) => {
    await failTimes(mock, LIMIT);
    mock.reset();
    expect((await attempt(mock, ORG.secret)).status).toBe(200);
  });
});

test.describe('configuration', () => {
  test.describe('tokenThrottle: a custom rate', () => {
    test.use({ mockOptions: { tokenThrottle: { requests: 2, periodSeconds: 10, period: '10s' } } });
    test('2 failures per 10 s', async ({ mock }) => {
      await failTimes(mock, 2);
      const res = await attempt(mock, ORG.secret);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('10');
    });
  });

  test.describe('tokenThrottle: null', () => {
    test.use({ mockOptions: { tokenThrottle: null } });
    test('no throttling', async ({ mock }) => {
      await failTimes(mock, LIMIT + 5);
      expect((await attempt(mock, ORG.secret)).status).toBe(200);
    });
  });
});

test('memory: ended windows are swept, and invented client_ids are capped (oldest dropped first)', () => {
  const clock = new VirtualClock(() => Date.UTC(2026, 0, 1));
  const throttle = new FailureThrottle({ clock, rate: DEFAULT_TOKEN_THROTTLE, replies: new Replies(), isKnown: (id) => id === 'known' });
  for (let i = 0; i < MAX_UNKNOWN_IDS + 50; i++) throttle.record(`invented-${i}`, false);
  for (let i = 0; i < LIMIT; i++) throttle.record('known', false);
  expect(throttle.size).toBe(MAX_UNKNOWN_IDS + 1);
  // The flood did not push out the real key's failures.
  expect(throttle.admit('known')?.status).toBe(429);
  expect(throttle.admit('invented-0')).toBeUndefined();
  clock.advance(61);
  throttle.record('someone', false);
  expect(throttle.size).toBe(1);
});

function listWith(mock: MockServer, token: string): Promise<Response> {
  return fetch(`${mock.baseUrl}/api/v2/content?limit=1`, { headers: { authorization: `Bearer ${token}` } });
}
