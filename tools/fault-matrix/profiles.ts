/**
 * The legal services of the fault matrix: the built-in platform and lenient profiles, and a few
 * "covering" profiles generated from schemas/profile.schema.json so that every value of every option
 * other than strict's is run against the whole suite at least once. Covering profile k sets the k-th
 * value no built-in shows of every option (strict's where an option has fewer), so the number of
 * whole-suite runs is the most such values an option has (the error body shapes: 5), not their sum.
 *
 * A value a spec wrongly refuses is a false alarm; until the spec is fixed it is listed in EXCLUDED
 * (with the spec and why), left out of the covering profiles, and reported by `npm run test:faults`.
 */
import { BUILT_IN_PROFILES, checkComplete, type Profile, PROFILE_GROUPS, PROFILE_OPTIONS } from '../../mock/profile.ts';
import { SCHEMA_BY_KEY } from '../../schemas/index.ts';

export interface MatrixProfile {
  /** The project's name: `platform`, `lenient`, `cover-1`, … */
  readonly name: string;
  /** What it shows that strict does not, in a few words. */
  readonly open: string;
  readonly profile: Profile;
}

export interface ExcludedValue {
  /** `group.option`. */
  readonly option: string;
  readonly value: unknown;
  /** The spec that refuses it. */
  readonly spec: string;
  readonly why: string;
}

/**
 * Option values a spec refuses although the document allows them: left out of the covering profiles,
 * and replaced by strict's value in the built-in profiles the matrix runs, until the spec is fixed.
 * A spec found refusing one gets its entry here (the option, the value, the spec and why) while it is
 * fixed, so the matrix says what it leaves out.
 */
export const EXCLUDED: readonly ExcludedValue[] = [];

/**
 * Values tried for options whose schema gives a range or a pattern, not a list. Chosen to stay within
 * what the suite can run in its time: a rate still per minute. A limit maximum of 50 is below the page
 * sizes the suite's walks would pick for the mock's data: with strict's refusal of a limit out of range
 * (a 400), the walks must find a size the target serves.
 */
const REPRESENTATIVES: Readonly<Record<string, readonly unknown[]>> = {
  'query.limitDefault': [25, 1000],
  'query.limitMax': [500, 5000, 50],
  'timestamps.fractionDigits': [1, 2, 4, 5, 6, 7],
  'rateLimit.rate': ['300/1m'],
  'auth.contentScopes': [['content:read']],
  'auth.usersScopes': [['users:read']],
};

type OptionSchema = { enum?: unknown[]; type?: string; $ref?: string };

/** Every value the schema allows for `group.option` (representatives for ranges and patterns). */
export function valuesOf(group: string, option: string): readonly unknown[] {
  const key = `${group}.${option}`;
  const represented = REPRESENTATIVES[key];
  if (represented) return represented;
  const root = SCHEMA_BY_KEY.profile as unknown as {
    properties: Record<string, { properties: Record<string, OptionSchema> }>;
    $defs: Record<string, OptionSchema>;
  };
  let schema = root.properties[group]?.properties[option];
  if (schema?.$ref) schema = root.$defs[schema.$ref.replace('#/$defs/', '')];
  if (schema?.enum) return schema.enum;
  if (schema?.type === 'boolean') return [true, false];
  throw new Error(`profile option ${key} has neither an enum nor representatives in tools/fault-matrix/profiles.ts`);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function isExcluded(option: string, value: unknown): boolean {
  return EXCLUDED.some((e) => e.option === option && same(e.value, value));
}

/** What `profile` sets differently from strict, as `option value` items. */
function differences(profile: Profile): string[] {
  const out: string[] = [];
  for (const group of PROFILE_GROUPS) {
    for (const option of PROFILE_OPTIONS[group]) {
      const value = (profile[group] as Record<string, unknown>)[option];
      if (!same(value, (BUILT_IN_PROFILES.strict[group] as Record<string, unknown>)[option])) out.push(`${group}.${option} ${JSON.stringify(value)}`);
    }
  }
  return out;
}

/** The covering profiles: together with the built-ins, every allowed value of every option but the excluded ones. */
export function coveringProfiles(): Profile[] {
  const strict = BUILT_IN_PROFILES.strict;
  const builtIns = [withoutExcluded(BUILT_IN_PROFILES.platform), withoutExcluded(BUILT_IN_PROFILES.lenient)];
  const toCover: Array<{ group: (typeof PROFILE_GROUPS)[number]; option: string; values: unknown[] }> = [];
  for (const group of PROFILE_GROUPS) {
    for (const option of PROFILE_OPTIONS[group]) {
      const shown = [strict, ...builtIns].map((p) => (p[group] as Record<string, unknown>)[option]);
      const values = valuesOf(group, option).filter((v) => !shown.some((s) => same(s, v)) && !isExcluded(`${group}.${option}`, v));
      if (values.length > 0) toCover.push({ group, option, values });
    }
  }
  const count = Math.max(0, ...toCover.map((o) => o.values.length));
  const profiles: Profile[] = [];
  for (let k = 0; k < count; k++) {
    const draft = JSON.parse(JSON.stringify(strict)) as Record<string, Record<string, unknown>>;
    for (const { group, option, values } of toCover) if (k < values.length) (draft[group] as Record<string, unknown>)[option] = values[k];
    draft.name = `cover-${k + 1}` as never;
    draft.description = `Covering profile ${k + 1} of the fault matrix.` as never;
    // The schema's rules across options hold in every generated profile.
    const pagination = draft.pagination as Record<string, unknown>;
    if (pagination.nextLink === 'cursor-only') pagination.nextWithoutQuery = 'accept';
    const query = draft.query as { limitDefault: number; limitMax: number };
    if (query.limitDefault > query.limitMax) query.limitDefault = query.limitMax;
    const checked = checkComplete(draft);
    if (!checked.ok) throw new Error(`covering profile ${k + 1} is not a valid profile: ${checked.error}`);
    profiles.push(checked.value);
  }
  return profiles;
}

/** `profile` with every excluded value it sets replaced by strict's. */
export function withoutExcluded(profile: Profile): Profile {
  const copy = JSON.parse(JSON.stringify(profile)) as Record<string, Record<string, unknown>>;
  for (const { option, value } of EXCLUDED) {
    const [group = '', name = ''] = option.split('.');
    const options = copy[group] as Record<string, unknown>;
    if (same(options[name], value)) options[name] = (BUILT_IN_PROFILES.strict[group as (typeof PROFILE_GROUPS)[number]] as Record<string, unknown>)[name];
  }
  return copy as unknown as Profile;
}

/**
 * Legal services that only a combination of values shows, which the covering profiles (one value of
 * each option at a time, the others mostly strict's) never put together.
 */
export function combinedProfiles(): Profile[] {
  const combinations: Array<{ name: string; description: string; set: Record<string, Record<string, unknown>> }> = [
    {
      // Filter names are not shown: a service knowing none of the platform's, and ignoring unknown
      // parameters, serves a filtered query whole. Only platform.filters may say so.
      name: 'filters-ignored',
      description: 'A service that knows no filter of the platform and ignores unknown parameters.',
      set: { filters: { dateFilters: 'none' }, query: { unknownParameter: 'ignore' } },
    },
  ];
  return combinations.map(({ name, description, set }) => {
    const draft = JSON.parse(JSON.stringify(BUILT_IN_PROFILES.strict)) as Record<string, Record<string, unknown>>;
    for (const [group, options] of Object.entries(set)) draft[group] = { ...draft[group], ...options };
    draft.name = name as never;
    draft.description = description as never;
    const checked = checkComplete(draft);
    if (!checked.ok) throw new Error(`combined profile ${name} is not a valid profile: ${checked.error}`);
    return withoutExcluded(checked.value);
  });
}

/** Every profile of the matrix but strict (the sound mock runs strict); the built-ins without the excluded values. */
export const MATRIX_PROFILES: readonly MatrixProfile[] = [
  withoutExcluded(BUILT_IN_PROFILES.platform),
  withoutExcluded(BUILT_IN_PROFILES.lenient),
  ...coveringProfiles(),
  ...combinedProfiles(),
].map((profile) => ({
  name: profile.name,
  open: differences(profile).join(', '),
  profile,
}));

export function isMatrixProfile(name: string): boolean {
  return MATRIX_PROFILES.some((p) => p.name === name);
}

/** Values of options no profile of the matrix shows: exactly the excluded ones, when the lists are right. */
export function uncoveredValues(): string[] {
  const profiles = [BUILT_IN_PROFILES.strict, ...MATRIX_PROFILES.map((p) => p.profile)];
  const out: string[] = [];
  for (const group of PROFILE_GROUPS) {
    for (const option of PROFILE_OPTIONS[group]) {
      for (const value of valuesOf(group, option)) {
        if (!profiles.some((p) => same((p[group] as Record<string, unknown>)[option], value))) out.push(`${group}.${option} ${JSON.stringify(value)}`);
      }
    }
  }
  return out;
}
