/** Faults at the seams of the core's deciding components: the keys (`clients`), the token store (`tokens`), bearer auth and its scopes (`access`). */
import { DEFAULT_CLIENTS } from '../app.ts';
import type { EndpointId } from '../../contracts/endpoints.ts';
import type { AccessGrant, IssuedTokens, MockSeams, Tokens } from '../seams.ts';
import { fault } from './fault.ts';

/** A token store whose tokens, once issued, authenticate until logged out, whatever their age. */
function neverExpiring(inner: Tokens): Tokens {
  const issued = new Map<string, AccessGrant>();
  const remember = (tokens: IssuedTokens | undefined): IssuedTokens | undefined => {
    const grant = tokens && inner.verify(tokens.accessToken);
    if (tokens && grant) issued.set(tokens.accessToken, grant);
    return tokens;
  };
  return {
    ...bound(inner),
    issue: (client, scopes) => remember(inner.issue(client, scopes)) as IssuedTokens,
    live: (client, scopes) => remember(inner.live(client, scopes)),
    verify: (token) => inner.verify(token) ?? issued.get(token),
    expireAccess: (token) => {
      issued.delete(token);
      return inner.expireAccess(token);
    },
  };
}

export const COMPONENT_FAULTS = {
  'token-wrong-secret-accepted': fault('token.credentials', 'a wrong client secret gets a token', () => ({
    clients: (inner) => ({ get: (id) => inner.get(id), authenticate: (id, secret) => inner.authenticate(id, secret) ?? inner.get(id) }),
  })),
  'token-never-expires': fault('lifetime.expiry', 'a token still authenticates after its lifetime', () => ({ tokens: neverExpiring })),
  'logout-keeps-access-token': fault('logout.expires-access', 'a logged-out access token still authenticates', () => ({
    tokens: (inner) => ({ ...bound(inner), expireAccess: () => false }),
  })),
  'logout-keeps-refresh-token': fault('logout.expires-refresh', 'a refresh token given with the logout still refreshes', () => ({
    tokens: (inner) => ({ ...bound(inner), expireRefresh: () => false }),
  })),
  // A live refresh token of any key authenticates with the scopes it was issued for.
  'refresh-token-as-bearer': fault('bearer.refresh-token', 'a live refresh token authenticates as a bearer token', (o) => ({
    tokens: (inner, core) => ({
      ...bound(inner),
      verify: (token) => {
        for (const { id } of o.clients ?? DEFAULT_CLIENTS) {
          const client = core.clients.get(id);
          const grant = client && inner.findRefresh(token, client);
          if (grant) return { ...grant, token, refreshToken: token };
        }
        return inner.verify(token);
      },
    }),
  })),
  // Any request passes as the first key with all its scopes.
  'bearer-not-checked': fault('bearer.required', 'a resource request without a valid bearer token is served', (o) => {
    const first = (o.clients ?? DEFAULT_CLIENTS)[0];
    return {
      access: (inner, core) => ({
        authenticate: (authorization) => {
          const result = inner.authenticate(authorization);
          const client = first && core.clients.get(first.id);
          if (result.ok || client === undefined) return result;
          const grant: AccessGrant = { token: '', client, scopes: client.scopes, issuedAtMs: 0, lifetimeSeconds: client.tokenTtlSeconds, refreshToken: '' };
          return { ok: true, grant };
        },
        authorize: (grant, endpoint) => inner.authorize(grant, endpoint),
      }),
    };
  }),
  'scope-not-enforced-content': fault('scopes.limit-token', 'a token without a content scope lists content', () => scopeNotEnforced('listContent')),
  'scope-not-enforced-users': fault('scopes.limit-token', 'a token without a users scope lists users', () => scopeNotEnforced('listUsers')),
};

/** Any token may call `unchecked`, whatever its scopes. */
function scopeNotEnforced(unchecked: EndpointId): MockSeams {
  return {
    access: (inner) => ({
      authenticate: (a) => inner.authenticate(a),
      authorize: (g, endpoint) => (endpoint === unchecked ? undefined : inner.authorize(g, endpoint)),
    }),
  };
}

/** The store's methods bound to it, to spread into a wrapper that replaces one of them. */
function bound(inner: Tokens): Tokens {
  return {
    issue: (client, scopes) => inner.issue(client, scopes),
    live: (client, scopes) => inner.live(client, scopes),
    verify: (token) => inner.verify(token),
    findRefresh: (token, client) => inner.findRefresh(token, client),
    redeemRefresh: (token, clientId) => inner.redeemRefresh(token, clientId),
    expireAccess: (token) => inner.expireAccess(token),
    expireRefresh: (token, clientId) => inner.expireRefresh(token, clientId),
  };
}
