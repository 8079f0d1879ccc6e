/**
 * Behaviour profiles: a value for every choice the API document leaves open (schemas/profile.schema.json). A profile file `extends` a built-in of
 * mock/profiles/ (default `strict`) and sets what differs; a bad one gets one sentence naming the key (`pagination.finalPage must be one of …`).
 */
import path from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020';
import type { RuleId } from '../contracts/rules/index.ts';
import { fail, ok, type Result } from '../util/result.ts';
import { readJsonFile } from './clients.ts';
import { SCHEMA_BY_KEY, validateProfile } from '../schemas/index.ts';
import type { Profile, ProfileFile, ProfileGroup } from '../schemas/types.ts';
import lenientFile from './profiles/lenient.json';
import platformFile from './profiles/platform.json';
import strictFile from './profiles/strict.json';

export type { Profile, ProfileFile, ProfileGroup } from '../schemas/types.ts';

export const PROFILE_NAMES = ['strict', 'platform', 'lenient'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** Every option of a profile, per group, in the schema's order: what "complete" means. */
export const PROFILE_OPTIONS: { readonly [G in ProfileGroup]: readonly (keyof Profile[G] & string)[] } = optionsOfSchema();

function optionsOfSchema(): { [G in ProfileGroup]: (keyof Profile[G] & string)[] } {
  const groups = SCHEMA_BY_KEY.profile.properties as Record<string, { properties?: Record<string, unknown> }>;
  const out: Record<string, string[]> = {};
  // `observed` is the record `npm run profile` writes beside the options, not a group of options.
  for (const [group, schema] of Object.entries(groups)) if (schema.properties && group !== 'observed') out[group] = Object.keys(schema.properties);
  return out as { [G in ProfileGroup]: (keyof Profile[G] & string)[] };
}

export const PROFILE_GROUPS = Object.keys(PROFILE_OPTIONS) as ProfileGroup[];

export function isProfileName(text: string): text is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(text);
}

/** The built-in profiles, complete. Their files are checked like any other when this module loads: a built-in that lost an option fails at once, naming it. */
export const BUILT_IN_PROFILES: Readonly<Record<ProfileName, Profile>> = {
  strict: builtIn('strict', strictFile),
  platform: builtIn('platform', platformFile),
  lenient: builtIn('lenient', lenientFile),
};

function builtIn(name: ProfileName, file: unknown): Profile {
  const profile = checkComplete(file);
  if (!profile.ok) throw new Error(`mock/profiles/${name}.json: ${profile.error}`);
  return deepFreeze(profile.value);
}

/** A profile file made complete: validated, merged over the profile it extends (default strict), checked across options; the error names the key. */
export function resolveProfile(file: ProfileFile, defaults: { readonly name?: string } = {}): Result<Profile> {
  if (!validateProfile(file)) return fail(describeProfileError(validateProfile.errors, file));
  const baseName: ProfileName = file.extends ?? 'strict';
  const base = BUILT_IN_PROFILES[baseName];
  const setsOptions = PROFILE_GROUPS.some((group) => file[group] !== undefined && Object.keys(file[group] as object).length > 0);
  const merged: Record<string, unknown> = {
    name: file.name ?? defaults.name ?? (setsOptions ? `${baseName}-custom` : baseName),
    description: file.description ?? (setsOptions ? `The built-in ${baseName} profile with some options changed.` : base.description),
  };
  for (const group of PROFILE_GROUPS) merged[group] = { ...base[group], ...(file[group] ?? {}) };
  return checkComplete(merged);
}

/** Whether a value is a whole profile: valid, every option set, and the rules across options kept. */
export function checkComplete(value: unknown): Result<Profile> {
  if (!validateProfile(value)) return fail(describeProfileError(validateProfile.errors, value));
  const file = value as ProfileFile;
  if (typeof file.name !== 'string') return fail('name is not set: a complete profile has a name.');
  for (const group of PROFILE_GROUPS) {
    const options = file[group] as Record<string, unknown> | undefined;
    for (const option of PROFILE_OPTIONS[group])
      if (options?.[option] === undefined) return fail(`${group}.${option} is not set: a complete profile sets every option (or extends a built-in).`);
  }
  const profile = { description: '', ...file } as Profile;
  if (profile.query.limitDefault > profile.query.limitMax)
    return fail(`query.limitDefault must not be above query.limitMax (${profile.query.limitMax}), got ${profile.query.limitDefault}.`);
  if (profile.pagination.nextLink === 'cursor-only' && profile.pagination.nextWithoutQuery !== 'accept')
    return fail(cursorOnlyRule(shown(profile.pagination.nextWithoutQuery)));
  const { $schema: _schema, extends: _extends, observed: _observed, ...rest } = profile as Profile & ProfileFile;
  return ok(rest as Profile);
}

/** A built-in profile by name, or a profile file (JSON) by path. Throws an Error whose message is one sentence: which file, and which key is wrong. */
export function loadProfile(nameOrPath: string): Profile {
  if (isProfileName(nameOrPath)) return BUILT_IN_PROFILES[nameOrPath];
  const value = readJsonFile(
    nameOrPath,
    (code) =>
      `Profile "${nameOrPath}" is neither a built-in profile (${PROFILE_NAMES.join(', ')}) nor a readable file (${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}).`,
    `Profile file ${nameOrPath} is not valid JSON.`,
  );
  const stem = path.basename(nameOrPath.toLowerCase(), '.json');
  const resolved = resolveProfile(value as ProfileFile, /^[a-z0-9][a-z0-9._-]{0,63}$/.test(stem) ? { name: stem } : {});
  if (!resolved.ok) throw new Error(`Profile file ${nameOrPath}: ${resolved.error}`);
  return resolved.value;
}

function cursorOnlyRule(got: string): string {
  return `pagination.nextWithoutQuery must be "accept" when pagination.nextLink is "cursor-only" (a links.next that carries only next must be served), got ${got}.`;
}

/** The dotted key of a JSON pointer: `/pagination/finalPage` → `pagination.finalPage`. */
function keyOf(pointer: string): string {
  return pointer.slice(1).split('/').join('.');
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function valueAt(data: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce((here, segment) => (typeof here === 'object' && here !== null ? (here as Record<string, unknown>)[segment] : undefined), data);
}

/** The schema of the option at `key` (`group.option` or a top-level member). */
export function schemaOf(key: string): Record<string, unknown> | undefined {
  const root = SCHEMA_BY_KEY.profile as unknown as { properties: Record<string, { properties?: Record<string, unknown> }>; $defs: Record<string, unknown> };
  const [group, option] = key.split('.');
  const top = root.properties[group ?? ''] as Record<string, unknown> | undefined;
  let schema = option === undefined ? top : ((top as { properties?: Record<string, unknown> } | undefined)?.properties?.[option] as Record<string, unknown>);
  const ref = schema?.$ref;
  // The option's own words (its description) over the definition it refers to.
  if (typeof ref === 'string') schema = { ...(root.$defs[ref.replace('#/$defs/', '')] as Record<string, unknown>), ...schema };
  return schema;
}

/** The rule whose open point the option at `key` is: its schema's `x-rule` (every option names one, mock/test/profile.test.ts). */
export function ruleOfOption(key: string): RuleId {
  return schemaOf(key)?.['x-rule'] as RuleId;
}

const KEYWORD_ORDER = ['additionalProperties', 'type', 'enum', 'const', 'pattern', 'minimum', 'maximum', 'items', 'contains', 'uniqueItems', 'minItems'];

/** One sentence for the most telling error: an unknown key, then a wrong type, then a value outside its choices; array errors name the whole option. */
export function describeProfileError(errors: readonly ErrorObject[] | null | undefined, data: unknown): string {
  const list = (errors ?? []).filter((e) => e.keyword !== 'if');
  if (list.length === 0) return 'the profile does not match schemas/profile.schema.json.';
  const rank = (e: ErrorObject) => {
    const i = KEYWORD_ORDER.indexOf(e.keyword);
    return i < 0 ? KEYWORD_ORDER.length : i;
  };
  const error = [...list].sort((a, b) => rank(a) - rank(b))[0] as ErrorObject;
  const params = error.params as Record<string, unknown>;
  if (error.instancePath === '' && error.keyword === 'type') return `a profile must be a JSON object, got ${Array.isArray(data) ? 'an array' : shown(data)}.`;
  if (error.keyword === 'additionalProperties') {
    const key = [keyOf(error.instancePath), String(params.additionalProperty)].filter((k) => k !== '').join('.');
    return `${key} is not an option of a profile (see schemas/profile.schema.json).`;
  }
  // An error inside an array (auth.contentScopes/0) is about the option: at most group.option.
  const pointer = error.instancePath.split('/').slice(0, 3).join('/');
  const key = keyOf(pointer);
  const got = shown(valueAt(data, pointer));
  // The schema's one rule across options: a cursor-only links.next must be served (if/then).
  if ((error.keyword === 'required' && params.missingProperty === 'nextWithoutQuery') || (error.keyword === 'const' && key === 'pagination.nextWithoutQuery'))
    return cursorOnlyRule(error.keyword === 'required' ? 'nothing' : got);
  const schema = schemaOf(key);
  if (!key.includes('.') && error.keyword === 'type') return `${key} must be an object of options, got ${got}.`;
  if (Array.isArray(schema?.enum)) return `${key} must be one of ${(schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${got}.`;
  if (schema?.type === 'boolean') return `${key} must be true or false, got ${got}.`;
  if (schema?.type === 'integer') return `${key} must be an integer from ${String(schema.minimum)} to ${String(schema.maximum)}, got ${got}.`;
  if (schema?.type === 'array') {
    const items = ((schema.items as { enum?: unknown[] } | undefined)?.enum ?? []).map((v) => JSON.stringify(v)).join(', ');
    const must = (schema.contains as { const?: unknown } | undefined)?.const;
    return `${key} must be a list of distinct scopes from ${items}${must === undefined ? '' : ` holding ${JSON.stringify(must)}`}, got ${got}.`;
  }
  if (key === 'rateLimit.rate') return `${key} must be requests per period like "200/1m" (period in s, m, h or d), got ${got}.`;
  if (key === 'tokens.requestLimit') return `${key} must be requests per period like "15/10s" (period in s, m, h or d), or "0", got ${got}.`;
  if (key === 'tokens.lifetime') return `${key} must be a period like "60d" or "1h" (s, m, h or d), got ${got}.`;
  if (key === 'name') return `${key} must be a short name of lower-case letters, digits, ".", "_" and "-", got ${got}.`;
  return `${key} ${error.message ?? 'is not valid'}, got ${got}.`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
