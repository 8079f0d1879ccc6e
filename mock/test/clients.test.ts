/** API keys (mock/clients.ts): the defaults, clients-file validation that names the bad entry, secret checks. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { ClientRegistry, DEFAULT_CLIENTS, loadClientsFile, validateClients } from '../clients.ts';

const DEFAULTS = { rate: DEFAULT_RATE, tokenTtlSeconds: 3600 };

test('the default keys: an organization key with four scopes and a provider key for Mock Academy', () => {
  const registry = new ClientRegistry(DEFAULT_CLIENTS, DEFAULTS);
  const org = registry.get('mock-org-client');
  expect(org && [...org.scopes]).toEqual(['content:read', 'content:write', 'users:read', 'users:write']);
  expect(org?.provider).toBeUndefined();
  const provider = registry.get('mock-provider-client');
  expect(provider && [...provider.scopes]).toEqual(['content:read']);
  expect(provider?.provider).toBe('Mock Academy');
});

test.describe('secrets', () => {
  const registry = new ClientRegistry(DEFAULT_CLIENTS, DEFAULTS);
  for (const { id, secret, ok } of [
    { id: 'mock-org-client', secret: 'mock-org-secret', ok: true },
    { id: 'mock-org-client', secret: 'mock-org-secreT', ok: false },
    { id: 'mock-org-client', secret: 'mock-org-secret-and-more', ok: false },
    { id: 'mock-org-client', secret: '', ok: false },
    { id: 'mock-org-client', secret: 'mock-provider-secret', ok: false },
    { id: 'nobody', secret: 'mock-org-secret', ok: false },
  ]) {
    test(`${id} with ${JSON.stringify(secret)} ${ok ? 'authenticates' : 'does not'}`, () => {
      expect(registry.authenticate(id, secret)?.id).toBe(ok ? id : undefined);
    });
  }
});

test('a key rate and token lifetime override the mock-wide ones; rate 0 turns limiting off for that key', () => {
  const registry = new ClientRegistry(
    [
      { id: 'a', secret: 's', scopes: [], rate: '20/10s', tokenTtl: '1h' },
      { id: 'b', secret: 's', scopes: [], rate: '0' },
      { id: 'c', secret: 's', scopes: [] },
    ],
    DEFAULTS,
  );
  expect(registry.get('a')).toMatchObject({ rate: { requests: 20, periodSeconds: 10, period: '10s' }, tokenTtlSeconds: 3600 });
  expect(registry.get('b')?.rate).toBeNull();
  expect(registry.get('c')).toMatchObject({ rate: DEFAULT_RATE, tokenTtlSeconds: 3600 });
});

test.describe('validation names the source, the entry and the problem', () => {
  const good = { id: 'k', secret: 's', scopes: ['content:read'] };
  for (const { value, message } of [
    { value: {}, message: /^f: expected a JSON array of clients, got object\.$/ },
    { value: [], message: /^f: expected at least one client/ },
    { value: [good, 'x'], message: /^f: entry 1 is not an object\.$/ },
    { value: [{ ...good, id: '' }], message: /^f: entry 0: "id" must be a non-empty string\.$/ },
    { value: [good, good], message: /^f: entry 1 \("k"\): "id" repeats an earlier entry\.$/ },
    { value: [{ ...good, secret: 5 }], message: /^f: entry 0 \("k"\): "secret" must be a non-empty string\.$/ },
    { value: [{ ...good, scopes: 'content:read' }], message: /"scopes" must be an array of scopes/ },
    { value: [{ ...good, scopes: ['content read'] }], message: /"scopes" must be an array of scopes/ },
    { value: [{ ...good, provider: '' }], message: /"provider" must be a non-empty string/ },
    { value: [{ ...good, rate: '20 per minute' }], message: /^f: entry 0 \("k"\): "rate" must look like "200\/1m".*got "20 per minute"\.$/ },
    { value: [{ ...good, tokenTtl: 60 }], message: /"tokenTtl" must be a period like "1h" or "60d", got 60\.$/ },
    { value: [{ ...good, scope: ['content:read'] }], message: /has an unknown member "scope"/ },
  ]) {
    test(`${JSON.stringify(value)}`, () => expect(() => validateClients(value, 'f')).toThrow(message));
  }

  test('a secret is never quoted in an error', () => {
    expect(() => validateClients([{ id: 'k', secret: 'TOP-SECRET', scopes: 'x' }], 'f')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('TOP-SECRET') }),
    );
  });
});

test.describe('clients file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mock-clients-'));
  test('a valid file loads', () => {
    const file = path.join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify([{ id: 'k', secret: 's', scopes: ['users:read'], provider: 'P', rate: '5/1s', tokenTtl: '1m' }]));
    expect(loadClientsFile(file)).toEqual([{ id: 'k', secret: 's', scopes: ['users:read'], provider: 'P', rate: '5/1s', tokenTtl: '1m' }]);
  });
  test('a missing file, broken JSON and a bad entry each say so', () => {
    expect(() => loadClientsFile(path.join(dir, 'none.json'))).toThrow(/^Cannot read the clients file .*none\.json \(ENOENT\)\.$/);
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '[{"id": ');
    expect(() => loadClientsFile(broken)).toThrow(/^The clients file .*broken\.json is not valid JSON\.$/);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ id: 'k', secret: 's', scopes: [] }, { id: 'x' }]));
    expect(() => loadClientsFile(bad)).toThrow(/^clients file .*bad\.json: entry 1 \("x"\): "secret" must be a non-empty string\.$/);
  });
});
