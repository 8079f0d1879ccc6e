/** The token store (mock/tokens.ts) on a manual clock: randomness, lifetimes to the millisecond, logout, eviction. */
import { expect, test } from '@playwright/test';
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { ClientRegistry } from '../clients.ts';
import { VirtualClock } from '../clock.ts';
import { REFRESH_LIFETIME_FACTOR, TokenStore } from '../tokens.ts';

function setup(indexLive = false) {
  const clock = new VirtualClock(() => Date.UTC(2026, 0, 1));
  const clients = new ClientRegistry(
    [
      { id: 'a', secret: 's', scopes: ['content:read'], tokenTtl: '1m' },
      { id: 'b', secret: 's', scopes: ['content:read'] },
    ],
    { rate: DEFAULT_RATE, tokenTtlSeconds: 3600 },
  );
  const store = new TokenStore({ clock, indexLive });
  return { clock, store, a: clients.get('a')!, b: clients.get('b')! };
}

test('tokens are 32 random bytes in base64url, all different', () => {
  const { store, a } = setup();
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const issued = store.issue(a, ['content:read']);
    for (const token of [issued.accessToken, issued.refreshToken]) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      seen.add(token);
    }
  }
  expect(seen.size).toBe(400);
});

test('a token carries exactly the requested scopes and its client', () => {
  const { store, a } = setup();
  const { accessToken } = store.issue(a, ['content:read']);
  const grant = store.verify(accessToken);
  expect(grant?.client.id).toBe('a');
  expect([...(grant?.scopes ?? [])]).toEqual(['content:read']);
});

test.describe('lifetime: valid 1 ms before it is reached, expired at it', () => {
  for (const { client, seconds } of [
    { client: 'a' as const, seconds: 60 },
    { client: 'b' as const, seconds: 3600 },
  ]) {
    test(`client ${client}: ${seconds} s`, () => {
      const s = setup();
      const issued = s.store.issue(s[client], []);
      expect(issued.lifetimeSeconds).toBe(seconds);
      s.clock.advance(seconds - 0.001);
      expect(s.store.verify(issued.accessToken)).toBeDefined();
      s.clock.advance(0.001);
      expect(s.store.verify(issued.accessToken)).toBeUndefined();
    });
  }
});

test('a refresh token is found only for its own client, and outlives the access token', () => {
  const { store, clock, a, b } = setup();
  const { refreshToken } = store.issue(a, ['content:read']);
  expect(store.findRefresh(refreshToken, b)).toBeUndefined();
  clock.advance(60 * REFRESH_LIFETIME_FACTOR - 1);
  expect(store.findRefresh(refreshToken, a)).toBeDefined();
  clock.advance(1);
  expect(store.findRefresh(refreshToken, a)).toBeUndefined();
});

test('logout: expireAccess ends a token at once; expireRefresh only for the same client', () => {
  const { store, a, b } = setup();
  const issued = store.issue(a, []);
  expect(store.expireAccess(issued.accessToken)).toBe(true);
  expect(store.verify(issued.accessToken)).toBeUndefined();
  expect(store.expireRefresh(issued.refreshToken, b.id)).toBe(false);
  expect(store.findRefresh(issued.refreshToken, a)).toBeDefined();
  expect(store.expireRefresh(issued.refreshToken, a.id)).toBe(true);
  expect(store.findRefresh(issued.refreshToken, a)).toBeUndefined();
});

test('expired entries are evicted: memory stays bounded under token churn', () => {
  const { store, clock, a } = setup();
  // 20 minutes of churn at 500 tokens a second of virtual time; each lives 1 min (refresh 2 min).
  for (let second = 0; second < 1200; second++) {
    for (let i = 0; i < 5; i++) store.issue(a, []);
    clock.advance(1);
  }
  const { accessTokens, refreshTokens } = store.stats();
  // Without eviction there would be 6000 of each; with it, at most about two sweeps' worth.
  expect(accessTokens + refreshTokens).toBeLessThan(2 * 1024 + 5 * 180);
  clock.advance(3600);
  expect(store.sweep()).toBe(0);
});

test('clear forgets everything', () => {
  const { store, a } = setup();
  const issued = store.issue(a, []);
  store.clear();
  expect(store.verify(issued.accessToken)).toBeUndefined();
  expect(store.stats()).toEqual({ accessTokens: 0, refreshTokens: 0, validAccessTokens: 0, validRefreshTokens: 0 });
});

test('stats count the access tokens still valid apart from those stored', () => {
  const { store, clock, a, b } = setup();
  const short = store.issue(a, []);
  store.issue(b, []);
  store.expireAccess(store.issue(b, []).accessToken);
  expect(store.stats()).toMatchObject({ accessTokens: 2, validAccessTokens: 2 });
  clock.advance(60);
  expect(store.stats()).toMatchObject({ accessTokens: 2, validAccessTokens: 1 });
  expect(store.verify(short.accessToken)).toBeUndefined();
});

test.describe('live tokens (indexLive)', () => {
  test('the newest valid token for the same client and scope set, whatever their order', () => {
    const { store, a, b } = setup(true);
    const first = store.issue(a, ['content:read', 'users:read']);
    expect(store.live(a, ['users:read', 'content:read'])).toEqual(first);
    expect(store.live(a, ['content:read'])).toBeUndefined();
    expect(store.live(b, ['content:read', 'users:read'])).toBeUndefined();
    const second = store.issue(a, ['content:read', 'users:read']);
    expect(store.live(a, ['content:read', 'users:read'])?.accessToken).toBe(second.accessToken);
  });

  test('none once it is logged out or expired; a used refresh token is replaced', () => {
    const { store, clock, a } = setup(true);
    const first = store.issue(a, ['x:y']);
    store.redeemRefresh(first.refreshToken, a.id);
    const again = store.live(a, ['x:y']);
    expect(again?.accessToken).toBe(first.accessToken);
    expect(again?.refreshToken).not.toBe(first.refreshToken);
    expect(store.findRefresh(again?.refreshToken ?? '', a)).toBeDefined();
    store.expireAccess(first.accessToken);
    expect(store.live(a, ['x:y'])).toBeUndefined();
    store.issue(a, ['x:y']);
    clock.advance(60);
    expect(store.live(a, ['x:y'])).toBeUndefined();
  });

  test('without indexLive there are none', () => {
    const { store, a } = setup();
    store.issue(a, []);
    expect(store.live(a, [])).toBeUndefined();
  });
});
