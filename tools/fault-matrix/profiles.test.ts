/** The legal profiles of the fault matrix (tools/fault-matrix/profiles.ts): valid, covering, and honest about what they leave out. */
import { expect, test } from '@playwright/test';
import { BUILT_IN_PROFILES, checkComplete } from '../../mock/profile.ts';
import { combinedProfiles, coveringProfiles, EXCLUDED, MATRIX_PROFILES, uncoveredValues, valuesOf, withoutExcluded } from './profiles.ts';

test('every profile of the matrix is complete and valid, with a name of its own', () => {
  for (const { profile } of MATRIX_PROFILES) expect(checkComplete(profile), profile.name).toEqual({ ok: true, value: profile });
  const names = MATRIX_PROFILES.map((p) => p.name);
  expect(new Set(names).size).toBe(names.length);
  expect(names.slice(0, 2)).toEqual(['platform', 'lenient']);
});

test('together with strict they show every allowed value of every option, but exactly the excluded ones', () => {
  const excluded = EXCLUDED.map((e) => `${e.option} ${JSON.stringify(e.value)}`).sort();
  expect(uncoveredValues().sort()).toEqual(excluded);
});

test('each excluded value is a value its option allows, named with its spec and reason', () => {
  for (const e of EXCLUDED) {
    const [group = '', option = ''] = e.option.split('.');
    expect(
      valuesOf(group, option).map((v) => JSON.stringify(v)),
      e.option,
    ).toContain(JSON.stringify(e.value));
    expect(e.spec).not.toBe('');
    expect(e.why).not.toBe('');
  }
});

test('the built-ins run unchanged while nothing is excluded', () => {
  expect(EXCLUDED).toEqual([]);
  for (const profile of Object.values(BUILT_IN_PROFILES)) expect(withoutExcluded(profile)).toEqual(profile);
});

test('the covering profiles are few: as many as the option with the most values left to show', () => {
  expect(coveringProfiles().length).toBeLessThanOrEqual(6);
});

test('a combined profile shows a combination no covering profile puts together: filters ignored', () => {
  const ignoring = combinedProfiles().find((p) => p.name === 'filters-ignored');
  expect(ignoring?.filters.dateFilters).toBe('none');
  expect(ignoring?.query.unknownParameter).toBe('ignore');
});

test('a covering profile with a maximum of limit below its default serves its maximum by default', () => {
  const small = coveringProfiles().find((p) => p.query.limitMax === 50);
  expect(small?.query).toMatchObject({ limitMax: 50, limitDefault: 50, limitOutOfRange: 'refuse', invalidStatus: 400 });
});
