/**
 * Every `LP_*` setting of the project, declared once: its type, default, who reads it and what it means. The contract suite, the load scripts (k6's `__ENV`)
 * and the scripts all read through `readSetting`, so a value means the same everywhere and a bad one is refused with the same sentence; `.env.example` and
 * docs/configuration.md are generated from this table (`npm run docs`). k6-safe: no `URL`, no Node modules, no `u`-flag regexes.
 */
import { parsePeriod, parseRate } from '../contracts/duration.ts';
import { hostOf } from '../contracts/environments.ts';
import { PAGE_LIMIT } from '../contracts/limits.ts';
import { isScopeForm, parseScopeList } from '../contracts/scopes.ts';

type Bounds = { readonly choices?: readonly string[]; readonly min?: number; readonly max?: number };

/** A kind of setting: its values' name in docs/configuration.md (`hint`), "X must be …" of a bad text (`expected`), `read`: a text's value, or undefined. */
function kind<T>(hint: string, expected: string | ((spec: Bounds) => string), read: (text: string, spec: Bounds) => T | undefined) {
  return { hint, expected, read };
}

const FLAGS: Readonly<Record<string, boolean>> = { '1': true, true: true, '0': false, false: false };
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const SAFE = Number.MAX_SAFE_INTEGER;

/** A number whose text matches `pattern`, within the setting's `min`..`max`. */
function numeric(hint: string, noun: string, pattern: RegExp) {
  return kind(
    hint,
    ({ min = -SAFE, max = SAFE }) => `${noun} from ${min} to ${max}`,
    (text, { min = -SAFE, max = SAFE }) => (pattern.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined),
  );
}

/** A list of at least one item, each of the right form. */
const listOf = (items: string[], form: (item: string) => boolean = () => true) => (items.length > 0 && items.every(form) ? items : undefined);

export const SETTING_KINDS = {
  flag: kind('`1` or `0`', '1 or 0', (text) => FLAGS[text.toLowerCase()]),
  /** Without credentials; a trailing slash is dropped. */
  url: kind('http(s) URL', 'an absolute http(s) URL without credentials', (text) =>
    hostOf(text) === undefined || /^https?:\/\/[^/?#]*@/i.test(text) ? undefined : text.replace(/\/+$/, ''),
  ),
  text: kind('text', 'text', (text) => text),
  /** Text never echoed in a message. */
  secret: kind('secret', 'text', (text) => text),
  /** Compared in lower case. */
  choice: kind(
    'one of',
    ({ choices = [] }) => `one of ${choices.join(', ')}`,
    (text, { choices = [] }) => choices.find((c) => c === text.toLowerCase()),
  ),
  integer: numeric('whole number', 'a whole number', /^-?\d{1,15}$/),
  number: numeric('number', 'a number', /^-?\d{1,15}(?:\.\d{1,15})?$/),
  /** In seconds. */
  period: kind('period (`90s`, `2m`, `60d`)', 'a period like 90s, 2m, 12h or 60d', parsePeriod),
  /** `0` is null: not limited. */
  rate: kind('rate (`200/1m`, `0`)', 'a rate like 200/1m or 20/10s, or 0 for no limit', parseRate),
  /** Comma-delimited (spaces accepted too). */
  scopes: kind('scopes (`content:read,users:read`)', 'a comma-delimited list of scopes like content:read,users:read', (text) =>
    listOf(parseScopeList(text), isScopeForm),
  ),
  names: kind('names, comma-delimited', 'a comma-delimited list of names', (text) => listOf(text.split(/[\s,]+/).filter((part) => part !== ''))),
  /** A DNS label: letters, digits and inner hyphens. */
  label: kind('host label', 'a host label like "acme" (letters, digits, inner hyphens)', (text) => (LABEL.test(text) ? text.toLowerCase() : undefined)),
};
type SettingType = keyof typeof SETTING_KINDS;
type SettingTypes = { [K in SettingType]: Exclude<ReturnType<(typeof SETTING_KINDS)[K]['read']>, undefined> };

export const SETTING_GROUPS = {
  target: 'Target',
  keys: 'Keys',
  capabilities: 'What the target offers',
  cost: 'Rate budget, time and strictness',
  run: 'What a run checks, and where its reports go',
  properties: 'Property-based and fuzz runs',
  load: 'Load scripts (k6)',
  self: 'Checking the suite itself',
} as const;
export type SettingGroup = keyof typeof SETTING_GROUPS;

export interface SettingSpec extends Bounds {
  readonly type: SettingType;
  readonly group: SettingGroup;
  /** Who reads it: the contract suite, the k6 load scripts, `npm run profile`, the project's own runners. */
  readonly readers: readonly ('suite' | 'load' | 'profile' | 'runner')[];
  /** The default, written as a user would write the value; absent: unset means "not known" or "not used". */
  readonly default?: string;
  /** What it means, and what happens when it is unset. */
  readonly doc: string;
  /** Set by the project's runners for their own child runs: documented, not for users. */
  readonly internal?: boolean;
}

/** The settings of one group, each marked with it. */
function inGroup<const G extends SettingGroup, const T extends Record<string, Omit<SettingSpec, 'group'>>>(group: G, settings: T) {
  return Object.fromEntries(Object.entries(settings).map(([name, spec]) => [name, { ...spec, group }])) as { [N in keyof T]: T[N] & { readonly group: G } };
}

export const SETTINGS = {
  ...inGroup('target', {
    LP_TARGET: {
      type: 'choice',
      readers: ['suite'],
      choices: ['mock', 'remote'],
      default: 'mock',
      doc: '`mock`: the suite starts its own mock per worker; `remote`: a running service (betatest, or a mock started with `npm run mock`). Unset while a remote setting (LP_ENVIRONMENT, LP_BASE_URL, LP_CLIENT_ID, …) is set, the run is refused rather than silently testing the embedded mock.',
    },
    LP_AUTH_URL: { type: 'url', readers: ['suite', 'load', 'profile'], doc: '{auth_url}, the token host. Overrides the host table.' },
    LP_BASE_URL: { type: 'url', readers: ['suite', 'load', 'profile'], doc: '{base_url}, the API host. Overrides the host table.' },
    LP_ENVIRONMENT: {
      type: 'choice',
      readers: ['suite', 'load', 'profile'],
      choices: ['betatest', 'production'],
      doc: 'Picks both hosts from the host table, with LP_DATA_CENTER.',
    },
    LP_DATA_CENTER: {
      type: 'choice',
      readers: ['suite', 'load', 'profile'],
      choices: ['us', 'eu', 'ca'],
      default: 'us',
      doc: 'Data center of LP_ENVIRONMENT.',
    },
    LP_ORG_HOST: {
      type: 'label',
      readers: ['suite', 'load', 'profile'],
      doc: 'Organization host label (`acme` for acme.degreed.com): the organization-specific hosts instead of the table.',
    },
    LP_CONTROL_URL: {
      type: 'url',
      readers: ['suite', 'profile'],
      doc: "A mock's control plane (`…/_mock`): lets checks move the clock and restore the budget. Never set for a real service.",
    },
  }),
  ...inGroup('keys', {
    LP_CLIENT_ID: { type: 'text', readers: ['suite', 'load', 'profile'], doc: 'Client id of the API key to test with (required for a remote target).' },
    LP_CLIENT_SECRET: { type: 'secret', readers: ['suite', 'load', 'profile'], doc: 'Its client secret. Never printed.' },
    LP_SCOPES: {
      type: 'scopes',
      readers: ['suite', 'load', 'profile'],
      default: 'content:read,users:read',
      doc: 'Scopes the key holds. Checks and scripts that need a scope it lacks are skipped with a sentence.',
    },
    LP_UNHELD_SCOPES: {
      type: 'scopes',
      readers: ['suite', 'profile'],
      doc: 'Scopes the key does not hold (`groups:read`): the check that such a scope is refused requests one. Unset: that check is skipped with a sentence (a key may hold more than LP_SCOPES lists, so the suite never guesses).',
    },
    LP_PROVIDER_CLIENT_ID: { type: 'text', readers: ['suite', 'profile'], doc: 'A provider key (all three or none): enables the provider-key checks.' },
    LP_PROVIDER_CLIENT_SECRET: { type: 'secret', readers: ['suite', 'profile'], doc: 'Its client secret.' },
    LP_PROVIDER_NAME: { type: 'text', readers: ['suite', 'profile'], doc: 'The provider, as content items carry it in `provider`.' },
    LP_PROVIDER_SCOPES: {
      type: 'scopes',
      readers: ['suite'],
      default: 'content:read',
      doc: 'Scopes the provider key holds; its token for the provider checks asks for all of them.',
    },
  }),
  ...inGroup('capabilities', {
    LP_REFRESH_GRANT: {
      type: 'flag',
      readers: ['suite', 'profile'],
      default: '0',
      doc: '1: the token endpoint answers grant_type=refresh_token, so logout is checked to expire the refresh token.',
    },
    LP_TOKEN_LIFETIME: {
      type: 'period',
      readers: ['suite', 'profile'],
      doc: "The token lifetime the organization is configured with (`60d`): expires_in is compared with it. Unset: a mock's control plane's (`LP_CONTROL_URL`, its profile's `tokens.lifetime`), else unknown: expires_in is then checked to be a positive whole number only.",
    },
    LP_SNAPSHOT_LIFETIME: {
      type: 'period',
      readers: ['profile'],
      default: '2m',
      doc: "The snapshot lifetime the target is configured with (the document's 2 minutes; a mock's `--snapshot-ttl`). `npm run profile` waits it out to see the status of an obsolete snapshot when it is 10 s or less, or with LP_FULL=1.",
    },
    LP_RATE: {
      type: 'rate',
      readers: ['suite', 'load', 'profile'],
      doc: 'The rate in force for the key (`200/1m`; a custom rate like `1000/1m`; `0`: not limited). The suite checks the budget against it; the load scripts plan with it (default 200/1m there).',
    },
  }),
  ...inGroup('cost', {
    LP_QUOTA: {
      type: 'flag',
      readers: ['suite', 'profile'],
      default: '0',
      doc: "1: spend the key's rate budget (a window per test, two against a sliding one) to check 429 and Retry-After on a target without a control plane.",
    },
    LP_ALLOW_PRODUCTION: {
      type: 'flag',
      readers: ['suite', 'load', 'profile'],
      default: '0',
      doc: '1: allow any run (the suite, `npm run profile`, the load scripts) against a production host, whose rate budget real integrations share. Unset: such a target is refused before anything is sent.',
    },
    LP_FULL: {
      type: 'flag',
      readers: ['suite', 'profile'],
      default: '0',
      doc: '1: include waits longer than a rate window (the 2-minute snapshot expiry without a control plane).',
    },
    LP_STRICT: {
      type: 'flag',
      readers: ['suite'],
      default: '0',
      doc: "1: platform deviations (the real platform's documented choices, where the API document is open) fail the run instead of being reported.",
    },
  }),
  ...inGroup('run', {
    LP_ONLY: {
      type: 'names',
      readers: ['suite'],
      doc: 'Only the tests of these rules (`rate.retry-after`) or tags (`@quota`, `@slow`), comma-delimited; `lp-contract --rule`, `--tag`. Unset: every test.',
    },
    LP_OUT_DIR: {
      type: 'text',
      readers: ['suite'],
      default: 'reports',
      doc: "Where a contract run writes its reports (junit.xml, html/, summary/) and Playwright its test-results/, relative to the current folder; `lp-contract --out`. Runs at once from one folder need one each: a run's start empties its test-results.",
    },
  }),
  ...inGroup('properties', {
    LP_PROPERTY_RUNS: {
      type: 'integer',
      readers: ['suite'],
      min: 1,
      max: 100_000,
      doc: 'fast-check runs per property. Unset: each property spec chooses, within a real key’s budget.',
    },
    LP_PROPERTY_SEED: {
      type: 'integer',
      readers: ['suite'],
      min: -2_147_483_648,
      max: 2_147_483_647,
      doc: 'Replays a fast-check failure (the failing run prints it). Unset: a fresh seed.',
    },
    LP_PROPERTY_PATH: { type: 'text', readers: ['suite'], doc: 'With LP_PROPERTY_SEED, replays exactly the failing case (the failing run prints it).' },
  }),
  ...inGroup('load', {
    LP_REPORT_DIR: {
      type: 'text',
      readers: ['load'],
      default: 'reports/load',
      doc: 'Where the load scripts write their reports, relative to where k6 runs; it must exist.',
    },
    LP_BUDGET_SHARE: {
      type: 'number',
      readers: ['load'],
      default: '0.8',
      min: 0.05,
      max: 1,
      doc: 'Share of the budget the paced scripts plan to use: their slots per period. A distributed run divides it by execution segment.',
    },
    LP_VUS: {
      type: 'integer',
      readers: ['load'],
      default: '5',
      min: 1,
      max: 500,
      doc: 'pagination and token-lifecycle: VUs of the whole test (k6 splits them by execution segment in a distributed run).',
    },
    LP_DURATION: { type: 'period', readers: ['load'], doc: 'pagination and token-lifecycle: how long they run. Default: two windows, at least 30 s.' },
    LP_PAGE_LIMIT: { type: 'integer', readers: ['load'], default: '50', min: PAGE_LIMIT.min, max: PAGE_LIMIT.max, doc: 'pagination: limit of each walk.' },
    LP_EXPECTED_ITEMS: { type: 'integer', readers: ['load'], min: 0, max: 1e7, doc: 'pagination: items each content walk must yield. Unset: not checked.' },
    LP_MAX_PAGES: { type: 'integer', readers: ['load'], min: 1, max: 1e5, doc: 'pagination: pages after which a walk stops (a sample of a large data set).' },
    LP_ITERATIONS: { type: 'integer', readers: ['load'], default: '3', min: 1, max: 100, doc: 'smoke: iterations.' },
    LP_PROBE_WINDOWS: { type: 'integer', readers: ['load'], default: '2', min: 1, max: 10, doc: 'rate-limit: windows the probe spans.' },
  }),
  ...inGroup('self', {
    LP_MOCK_PROFILE: {
      type: 'text',
      readers: ['suite'],
      doc: 'The embedded mock’s behaviour profile: a built-in name (strict, platform, lenient) or a profile file. Default strict.',
    },
    LP_MOCK_FAULTS: { type: 'names', readers: ['suite'], internal: true, doc: 'Faults the embedded mock is started with (the fault matrix sets it).' },
    LP_LEAK_LEDGER: { type: 'text', readers: ['suite'], internal: true, doc: 'File the secret-leak check reads fingerprints of issued tokens from.' },
    LP_SUMMARY_NAME: { type: 'text', readers: ['runner'], internal: true, doc: 'Name of the run’s summary file (reports/summary/<name>.json).' },
  }),
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = SettingTypes[(typeof SETTINGS)[N]['type']];

/** An environment as k6's `__ENV` and Node's `process.env` both are. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A setting that is missing or malformed; the message is one sentence naming the variable. */
export class SettingError extends Error {
  override readonly name = 'SettingError';

  constructor(sentence: string) {
    super(sentence);
    // The sentence is the whole story: a stack under it would bury it in a test runner's output.
    this.stack = `${this.name}: ${sentence}`;
  }
}

/** The text of a setting, trimmed; unset and blank are the same (an `.env` line `LP_X=` means "not set"). */
export function settingText(env: Env, name: SettingName): string | undefined {
  return env[name]?.trim() || undefined;
}

/** The value of a setting: its text read by its type, else its default, else undefined. Throws a SettingError. */
export function readSetting<N extends SettingName>(env: Env, name: N): SettingValue<N> | undefined {
  const spec: SettingSpec = SETTINGS[name];
  const text = settingText(env, name) ?? spec.default;
  if (text === undefined) return undefined;
  const { expected, read } = SETTING_KINDS[spec.type];
  const value = read(text, spec);
  if (value !== undefined) return value as SettingValue<N>;
  const shown = spec.type === 'secret' ? '(hidden)' : `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
  throw new SettingError(`${name} must be ${typeof expected === 'string' ? expected : expected(spec)}, got ${shown}.`);
}

/** The settings the table gives a default: read, they always have a value. */
export type DefaultedSetting = { [N in SettingName]: (typeof SETTINGS)[N] extends { readonly default: string } ? N : never }[SettingName];

/** The value of a setting with a default (the table's, the only one: no reader keeps its own). Throws a SettingError. */
export function readDefaulted<N extends DefaultedSetting>(env: Env, name: N): SettingValue<N> {
  return readSetting(env, name) as SettingValue<N>;
}

/** The value of a setting that must be set (or have a default); `why` completes the sentence "X is not set: <why>." */
export function requireSetting<N extends SettingName>(env: Env, name: N, why: string): SettingValue<N> {
  const value = readSetting(env, name);
  if (value === undefined) throw new SettingError(`${name} is not set: ${why}.`);
  return value;
}

/**
 * Warnings, one sentence each naming the closest setting, for the `LP_*` names of `env` with a value that no setting has: a misspelt setting (`LP_QOUTA=1`)
 * would otherwise be ignored without a word, and the run would not be the one its user asked for. The run goes on (a name may belong to another tool).
 */
export function unknownSettingWarnings(env: Env): string[] {
  const known = Object.keys(SETTINGS);
  return Object.keys(env)
    .filter((name) => name.startsWith('LP_') && !known.includes(name) && (env[name] ?? '').trim() !== '')
    .sort()
    .map((name) => `warning: ${name} is not a setting of this suite; did you mean ${closest(name, known)}?`);
}

const closest = (name: string, known: readonly string[]) =>
  known.reduce((best, other) => (editDistance(name, other) < editDistance(name, best) ? other : best));

/** Levenshtein distance, with a transposition counted as one edit (QOUTA → QUOTA). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = d;
    }
  return at(a.length, b.length);
}
