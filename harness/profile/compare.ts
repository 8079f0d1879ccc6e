/**
 * `npm run profile -- --compare <saved>`: which options changed since a saved profile. Only options both sides name are compared: an option the saved file
 * leaves to `extends`, or that no probe could decide now, is listed apart, never counted as drift.
 */
import { readJsonFile } from '../../mock/clients.ts';
import { BUILT_IN_PROFILES, describeProfileError, isProfileName, ruleOfOption } from '../../mock/profile.ts';
import { validateProfile } from '../../schemas/index.ts';
import type { ProfileFile } from '../../schemas/types.ts';
import { ALL_OPTIONS } from './session.ts';

/** A saved profile: a built-in name or a JSON file valid against schemas/profile.schema.json. Throws with one sentence. */
export function readSavedProfile(nameOrPath: string): ProfileFile {
  if (isProfileName(nameOrPath)) return BUILT_IN_PROFILES[nameOrPath] as ProfileFile;
  const unreadable = (code: string | undefined) =>
    `--compare ${nameOrPath}: not a built-in profile, nor a readable file (${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}).`;
  const value = readJsonFile(nameOrPath, unreadable, `--compare ${nameOrPath}: not valid JSON.`);
  if (!validateProfile(value)) throw new Error(`--compare ${nameOrPath}: ${describeProfileError(validateProfile.errors, value)}`);
  return value;
}

/** Whether two values of an option are the same (a list in any order). */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...value].sort() : value);
  return norm(a) === norm(b);
}

/** The options a profile (or its groups alone) sets, by `group.option`. */
export function optionsOf(profile: object): Map<string, unknown> {
  const groups = profile as Record<string, Record<string, unknown> | undefined>;
  const set = ALL_OPTIONS.map((option) => option.split('.') as [string, string]).filter(([group, name]) => groups[group]?.[name] !== undefined);
  return new Map(set.map(([group, name]) => [`${group}.${name}`, groups[group]?.[name]]));
}

/** The options whose value changed, each with the rule it is an open point of, and those set in the saved profile but undecided now. */
export function compareProfiles(saved: ProfileFile, observed: ProfileFile) {
  const now = optionsOf(observed);
  const saidBefore = [...optionsOf(saved)];
  return {
    drift: saidBefore
      .filter(([option, value]) => now.has(option) && !sameValue(now.get(option), value))
      .map(([option, value]) => ({ option, rule: ruleOfOption(option), saved: value, observed: now.get(option) })),
    undecided: saidBefore.filter(([option]) => !now.has(option)).map(([option]) => option),
  };
}
