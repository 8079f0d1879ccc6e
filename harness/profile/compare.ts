/**
 * `npm run profile -- --compare <saved>`: which options changed since a saved profile. Only options
 * both sides name are compared: an option the saved file leaves to `extends`, or that no probe could
 * decide now, is listed apart, never counted as drift.
 */
import { readFileSync } from 'node:fs';
import { BUILT_IN_PROFILES, describeProfileError, isProfileName } from '../../mock/profile.ts';
import { validateProfile } from '../../schemas/index.ts';
import type { ProfileFile } from '../../schemas/types.ts';
import type { OptionKey } from './session.ts';

/** A saved profile: a built-in name or a JSON file valid against schemas/profile.schema.json. Throws with one sentence. */
export function readSavedProfile(nameOrPath: string): ProfileFile {
  if (isProfileName(nameOrPath)) return BUILT_IN_PROFILES[nameOrPath] as ProfileFile;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(nameOrPath, 'utf8'));
  } catch (error) {
    throw new Error(`--compare ${nameOrPath}: not a built-in profile, nor a readable JSON file (${(error as Error).message.split('\n')[0]}).`, {
      cause: error,
    });
  }
  if (!validateProfile(value)) throw new Error(`--compare ${nameOrPath}: ${describeProfileError(validateProfile.errors, value)}`);
  return value;
}

/** Whether two values of an option are the same (a list in any order). */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...value].sort() : value);
  return norm(a) === norm(b);
}

/** The options a profile (or its groups alone) sets, by `group.option`. */
export function optionsOf(profile: object): Map<OptionKey, unknown> {
  const out = new Map<OptionKey, unknown>();
  for (const [group, options] of Object.entries(profile)) {
    if (group === 'observed' || typeof options !== 'object' || options === null || Array.isArray(options)) continue;
    for (const [option, value] of Object.entries(options)) out.set(`${group}.${option}` as OptionKey, value);
  }
  return out;
}

/** The options whose value changed, and those set in the saved profile but undecided now. */
export function compareProfiles(saved: ProfileFile, observed: ProfileFile) {
  const now = optionsOf(observed);
  const saidBefore = [...optionsOf(saved)];
  return {
    drift: saidBefore
      .filter(([option, value]) => now.has(option) && !sameValue(now.get(option), value))
      .map(([option, value]) => ({ option, saved: value, observed: now.get(option) })),
    undecided: saidBefore.filter(([option]) => !now.has(option)).map(([option]) => option),
  };
}
