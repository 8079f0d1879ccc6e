/** HTTP test fixtures: a fresh mock per test on port 0, its clock frozen at START_MS (only `mock.clock.advance` moves it), helpers for both origins. */
import { test as base } from '@playwright/test';
import { createMock, type MockOptions, type MockServer } from '../app.ts';
import type { TokenResponse } from '../../schemas/types.ts';
import { type Profile, type ProfileFile, resolveProfile } from '../profile.ts';

export { expect } from '@playwright/test';
export type { TokenResponse } from '../../schemas/types.ts';

export const START_MS = Date.UTC(2026, 0, 1);

export const ORG = { id: 'mock-org-client', secret: 'mock-org-secret' } as const;
export const PROVIDER = { id: 'mock-provider-client', secret: 'mock-provider-secret' } as const;

export const test = base.extend<{ mockOptions: MockOptions; mock: MockServer }>({
  mockOptions: [{}, { option: true }],
  mock: async ({ mockOptions }, use) => {
    const mock = createMock({ timeSource: () => START_MS, ...mockOptions });
    await mock.listen();
    await use(mock);
    await mock.close();
  },
});

/** A complete profile: strict (or the built-in `extends` names) with the options given. */
export function profiled(file: ProfileFile): Profile {
  const resolved = resolveProfile(file);
  if (!resolved.ok) throw new Error(resolved.error);
  return resolved.value;
}

export const FORM = 'application/x-www-form-urlencoded';

/** POST {auth}/oauth/token with a form body (or any body and headers given). */
export function postToken(mock: MockServer, form: Record<string, string> | string, headers: Record<string, string> = {}): Promise<Response> {
  const body = typeof form === 'string' ? form : new URLSearchParams(form).toString();
  return fetch(`${mock.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': FORM, ...headers }, body });
}

/** A token of `client` for `scope` (comma-delimited); fails the test with the answer when refused. */
export async function getToken(mock: MockServer, scope = 'content:read,users:read', client: { id: string; secret: string } = ORG): Promise<TokenResponse> {
  const res = await postToken(mock, { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, scope });
  if (res.status !== 200) throw new Error(`token request for ${client.id} (${scope}): expected 200, got ${res.status} ${await res.text()}`);
  return (await res.json()) as TokenResponse;
}

/** A response's JSON body, loosely typed: the assertions are what check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests reach into bodies whose shape they are asserting
export async function json(res: Response): Promise<any> {
  return res.json();
}

/** A request to the api origin, with a bearer token when given. */
export function api(mock: MockServer, path: string, token?: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  return fetch(`${mock.baseUrl}${path}`, { ...init, headers });
}

/** A control-plane request, POST by default, with a JSON body (none when `body` is undefined: JSON.stringify gives undefined). */
export function control(mock: MockServer, path: string, body?: unknown, method = 'POST'): Promise<Response> {
  return fetch(`${mock.baseUrl}/_mock${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
