/** API keys: the two defaults (mock-only secrets, in the README) or a clients file's entries; secrets kept as SHA-256 digests, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parsePeriod, parseRate, type Rate } from '../contracts/duration.ts';
import { isScopeForm } from '../contracts/scopes.ts';

/** One API key as configured (in code or in a clients file). */
export interface ClientConfig {
  id: string;
  secret: string;
  scopes: string[];
  /** Provider key: reaches only this provider's data. Absent: organization key. */
  provider?: string;
  /** Custom rate like `20/10s`; `0` turns limiting off for this key. Default: the mock's rate. */
  rate?: string;
  /** Token lifetime like `1h`. Default: the mock's token lifetime. */
  tokenTtl?: string;
}

/** The default keys. Their secrets are public and only ever valid against the mock. */
export const DEFAULT_CLIENTS: readonly ClientConfig[] = [
  { id: 'mock-org-client', secret: 'mock-org-secret', scopes: ['content:read', 'content:write', 'users:read', 'users:write'] },
  { id: 'mock-provider-client', secret: 'mock-provider-secret', scopes: ['content:read'], provider: 'Mock Academy' },
];

/** A key as the mock uses it: secret out of sight, rate and lifetime resolved. */
export interface Client {
  readonly id: string;
  readonly provider: string | undefined;
  readonly scopes: ReadonlySet<string>;
  /** The rate in force for this key; null: not limited. */
  readonly rate: Rate | null;
  readonly tokenTtlSeconds: number;
}

const KNOWN_KEYS = new Set(['id', 'secret', 'scopes', 'provider', 'rate', 'tokenTtl']);

function entryName(entry: unknown, index: number): string {
  const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? `entry ${index} ("${id}")` : `entry ${index}`;
}

/** A list of client entries (a clients file, or MockOptions.clients) checked and typed; throws an Error naming source, entry and fault, never a secret. */
export function validateClients(value: unknown, source: string): ClientConfig[] {
  if (!Array.isArray(value)) throw new Error(`${source}: expected a JSON array of clients, got ${value === null ? 'null' : typeof value}.`);
  if (value.length === 0) throw new Error(`${source}: expected at least one client, got an empty list.`);
  const ids = new Set<string>();
  return value.map((entry: unknown, index) => {
    const where = `${source}: ${entryName(entry, index)}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`${where} is not an object.`);
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e))
      if (!KNOWN_KEYS.has(key)) throw new Error(`${where} has an unknown member "${key}" (expected id, secret, scopes, provider, rate, tokenTtl).`);
    if (typeof e.id !== 'string' || e.id === '') throw new Error(`${where}: "id" must be a non-empty string.`);
    if (ids.has(e.id)) throw new Error(`${where}: "id" repeats an earlier entry.`);
    ids.add(e.id);
    if (typeof e.secret !== 'string' || e.secret === '') throw new Error(`${where}: "secret" must be a non-empty string.`);
    if (!Array.isArray(e.scopes) || e.scopes.some((s) => typeof s !== 'string' || !isScopeForm(s)))
      throw new Error(`${where}: "scopes" must be an array of scopes like "content:read".`);
    if (e.provider !== undefined && (typeof e.provider !== 'string' || e.provider === ''))
      throw new Error(`${where}: "provider" must be a non-empty string when given.`);
    if (e.rate !== undefined && (typeof e.rate !== 'string' || parseRate(e.rate) === undefined))
      throw new Error(`${where}: "rate" must look like "200/1m" (or "0" for no limit), got ${JSON.stringify(e.rate)}.`);
    if (e.tokenTtl !== undefined && (typeof e.tokenTtl !== 'string' || parsePeriod(e.tokenTtl) === undefined))
      throw new Error(`${where}: "tokenTtl" must be a period like "1h" or "60d", got ${JSON.stringify(e.tokenTtl)}.`);
    // Every member is known and checked above: a copy of the entry is the config.
    return { ...(e as unknown as ClientConfig), scopes: [...(e.scopes as string[])] };
  });
}

/** A JSON file's value; throws an Error with the sentence for a file it cannot read (by its error code) or that is not JSON. */
export function readJsonFile(path: string, unreadable: (code: string | undefined) => string, notJson: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(unreadable((error as NodeJS.ErrnoException).code), { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(notJson);
  }
}

/** Reads and validates a clients file; throws an Error with one sentence saying what is wrong. */
export function loadClientsFile(path: string): ClientConfig[] {
  const value = readJsonFile(path, (code) => `Cannot read the clients file ${path} (${code ?? 'error'}).`, `The clients file ${path} is not valid JSON.`);
  return validateClients(value, `clients file ${path}`);
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Compared against when the id is unknown, so an unknown id costs the same as a wrong secret. */
const DUMMY_DIGEST = digest('no such client');

/** The API keys as the endpoints ask about them (a seam: mock/seams.ts). */
export type ClientDirectory = Pick<ClientRegistry, 'get' | 'authenticate'>;

export class ClientRegistry {
  readonly #byId = new Map<string, { readonly client: Client; readonly secretDigest: Buffer }>();

  /** `configs` as validateClients returns them; `defaults` for the entries that set no rate or tokenTtl. */
  constructor(configs: readonly ClientConfig[], defaults: { rate: Rate | null; tokenTtlSeconds: number }) {
    for (const c of configs) {
      const rate = c.rate === undefined ? defaults.rate : parseRate(c.rate);
      const ttl = c.tokenTtl === undefined ? defaults.tokenTtlSeconds : parsePeriod(c.tokenTtl);
      if (rate === undefined || ttl === undefined) throw new Error(`client "${c.id}": invalid rate or tokenTtl (validate with validateClients).`);
      this.#byId.set(c.id, {
        client: { id: c.id, provider: c.provider, scopes: new Set(c.scopes), rate, tokenTtlSeconds: ttl },
        secretDigest: digest(c.secret),
      });
    }
  }

  /** The key with this client_id, whatever the secret. */
  get(id: string): Client | undefined {
    return this.#byId.get(id)?.client;
  }

  /** The key when the secret matches; digests make the comparison constant-time whatever the secret's length. */
  authenticate(id: string, secret: string): Client | undefined {
    const entry = this.#byId.get(id);
    const matches = timingSafeEqual(digest(secret), entry?.secretDigest ?? DUMMY_DIGEST);
    return matches && entry ? entry.client : undefined;
  }
}
