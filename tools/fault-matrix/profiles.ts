/**
 * The legal services of the fault matrix: the built-in platform and lenient profiles, and "covering" profiles from schemas/profile.schema.json so that every
 * value of every option runs against the whole suite. Covering profile k sets the k-th value no built-in shows of every option, so the number of whole-suite
 * runs is the most such values an option has, not their sum.
 */
import { BUILT_IN_PROFILES, checkComplete, type Profile, type ProfileGroup, PROFILE_GROUPS, PROFILE_OPTIONS, schemaOf } from '../../mock/profile.ts';

/**
 * Values tried for options whose schema gives a range or a pattern. A rate still per minute, for the suite's time; a limit maximum of 50, below the page sizes
 * the walks would pick, makes them find one.
 */
const REPRESENTATIVES: Readonly<Record<string, readonly unknown[]>> = {
  'query.limitDefault': [25, 1000],
  'query.limitMax': [500, 5000, 50],
  'timestamps.fractionDigits': [1, 2, 4, 5, 6, 7],
  'rateLimit.rate': ['300/1m'],
  // Lifetimes an organization may set above and below the document's default; a limit a run's token requests reach.
  'tokens.lifetime': ['365d', '1h'],
  'tokens.requestLimit': ['15/10s'],
  'auth.contentScopes': [['content:read']],
  'auth.usersScopes': [['users:read']],
};

/** Every value the schema allows for `group.option` (representatives for ranges and patterns). */
function valuesOf(group: string, option: string): readonly unknown[] {
  const key = `${group}.${option}`;
  const schema = schemaOf(key);
  const values = REPRESENTATIVES[key] ?? (schema?.type === 'boolean' ? [true, false] : (schema?.enum as unknown[] | undefined));
  if (values === undefined) throw new Error(`profile option ${key} has neither an enum nor representatives in tools/fault-matrix/profiles.ts`);
  return values;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const STRICT = BUILT_IN_PROFILES.strict;
const OPTIONS = PROFILE_GROUPS.flatMap((group) => PROFILE_OPTIONS[group].map((option) => [group, option] as const));
type Draft = Record<ProfileGroup, Record<string, unknown>>;
const valueIn = (profile: Profile, group: ProfileGroup, option: string) => (profile as unknown as Draft)[group][option];

/** Per option, the values it allows that none of `seen` shows. */
const unshown = (seen: readonly Profile[]) =>
  OPTIONS.map(([group, option]) => ({ group, option, values: valuesOf(group, option).filter((v) => !seen.some((p) => same(valueIn(p, group, option), v))) }));

/** Strict with the options `set` changes, checked complete. */
function profileOf(name: string, description: string, set: (draft: Draft) => void): Profile {
  const draft = JSON.parse(JSON.stringify(STRICT)) as Draft;
  set(draft);
  const checked = checkComplete({ ...draft, name, description });
  if (!checked.ok) throw new Error(`profile ${name} of the fault matrix is not a valid profile: ${checked.error}`);
  return checked.value;
}

/** The covering profiles: together with the built-ins, every allowed value of every option. */
export function coveringProfiles(): Profile[] {
  const toCover = unshown([STRICT, BUILT_IN_PROFILES.platform, BUILT_IN_PROFILES.lenient]);
  return Array.from({ length: Math.max(0, ...toCover.map((o) => o.values.length)) }, (_, k) =>
    profileOf(`cover-${k + 1}`, `Covering profile ${k + 1} of the fault matrix.`, (draft) => {
      for (const { group, option, values } of toCover) if (k < values.length) draft[group][option] = values[k];
      // The schema's rules across options hold in every generated profile.
      if (draft.pagination.nextLink === 'cursor-only') draft.pagination.nextWithoutQuery = 'accept';
      draft.query.limitDefault = Math.min(draft.query.limitDefault as number, draft.query.limitMax as number);
    }),
  );
}

/** Legal services only a combination of values shows, which the covering profiles (one option off strict at a time, mostly) never put together. */
export function combinedProfiles(): Profile[] {
  // Filter names are not shown: a service that knows none and ignores unknown parameters serves a filtered query whole: only platform.filters may say so.
  return [
    profileOf('filters-ignored', 'A service that knows no filter of the platform and ignores unknown parameters.', (draft) => {
      draft.filters.dateFilters = 'none';
      draft.query.unknownParameter = 'ignore';
    }),
    // A throttled token endpoint handing back a client's live token is seldom asked for a new one: a fresh token per request, and a limit tighter than
    // cover-1's, make the run's own token requests meet it between the clock moves of the control plane (which end its windows).
    profileOf('tokens-throttled', 'A token endpoint that issues a fresh token per request and throttles token requests, as OAuth servers do.', (draft) => {
      draft.tokens.requestLimit = '5/10s';
    }),
  ];
}

/** Every profile of the matrix but strict (the sound mock runs it): name, what it shows that strict does not, the profile. */
export const MATRIX_PROFILES: ReadonlyArray<{ name: string; open: string; profile: Profile }> = [
  BUILT_IN_PROFILES.platform,
  BUILT_IN_PROFILES.lenient,
  ...coveringProfiles(),
  ...combinedProfiles(),
].map((profile) => ({
  name: profile.name,
  open: OPTIONS.filter(([g, o]) => !same(valueIn(profile, g, o), valueIn(STRICT, g, o)))
    .map(([g, o]) => `${g}.${o} ${JSON.stringify(valueIn(profile, g, o))}`)
    .join(', '),
  profile,
}));

export function isMatrixProfile(name: string): boolean {
  return MATRIX_PROFILES.some((p) => p.name === name);
}

/** Values of options no profile of the matrix shows: none, when the lists are right. */
export function uncoveredValues(): string[] {
  return unshown([STRICT, ...MATRIX_PROFILES.map((p) => p.profile)]).flatMap(({ group, option, values }) =>
    values.map((value) => `${group}.${option} ${JSON.stringify(value)}`),
  );
}
