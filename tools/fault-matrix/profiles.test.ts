/** The legal profiles of the fault matrix (tools/fault-matrix/profiles.ts): valid and covering. */
import { expect, test } from '@playwright/test';
import { checkComplete } from '../../mock/profile.ts';
import { combinedProfiles, coveringProfiles, MATRIX_PROFILES, uncoveredValues } from './profiles.ts';

test('every profile of the matrix is complete and valid, with a name of its own', () => {
  for (const { profile } of MATRIX_PROFILES) expect(checkComplete(profile), profile.name).toEqual({ ok: true, value: profile });
  const names = MATRIX_PROFILES.map((p) => p.name);
  expect(new Set(names).size).toBe(names.length);
  expect(names.slice(0, 2)).toEqual(['platform', 'lenient']);
});

test('together with strict they show every allowed value of every option', () => {
  expect(uncoveredValues()).toEqual([]);
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
