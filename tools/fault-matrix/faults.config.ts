/**
 * The child run of `npm run test:faults`: per column, one project per group of faults (groups.ts) running the tests that state their rules, one per legal
 * profile and one for the sound mock running the whole contract suite. Each project's worker starts its own embedded mock, so projects share nothing.
 *
 * The long whole-suite projects run first, then the blind rate faults, which mostly wait; the fault groups fill the workers to the end. In a fault project any
 * outcome of a test of its rule is expected (specs/fixtures: `_brokenRule`): the matrix reads what happened, and a catch costs no new worker process.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig, type Project } from '@playwright/test';
import { FAULT_NAMES, FAULTS, type FaultName } from '../../mock/faults/index.ts';
import { ruleGrep } from '../../harness/verdict/declare.ts';
import type { MockTargetSettings } from '../../harness/run/config.ts';
import { BUILT_IN_PROFILES, type Profile } from '../../mock/profile.ts';
import * as areas from './areas.ts';
import { type Column, COLUMNS, inColumn } from './areas.ts';
import { MATRIX_PROFILES } from './profiles.ts';
import { type FaultGroups, groupProject, singleFaults } from './groups.ts';

// A remote target would ignore the mock's faults, each then read as uncaught. Checked here, so that a direct `playwright test --config` is refused too.
const wanted = process.env.LP_TARGET?.trim();
if (wanted && wanted !== 'mock') throw new Error(`The fault matrix runs against the embedded mock only: unset LP_TARGET (got "${process.env.LP_TARGET}").`);

/** The embedded mock of a project: blind, it hides its control plane and keeps a short rate window (areas.ts). */
function settings(column: Column, faults: readonly FaultName[], profile?: Profile): MockTargetSettings {
  if (column === 'control') return { kind: 'mock', faults, ...(profile ? { profile } : {}) };
  const own = profile ?? BUILT_IN_PROFILES.strict;
  const rate = faults.some(areas.waitsForWindows) ? areas.BLIND_FAULT_RATE : areas.BLIND_RATE;
  return { kind: 'mock', faults, blind: true, profile: { ...own, rateLimit: { ...own.rateLimit, rate } } };
}

/** One worker (and one mock) per project, traces off as in playwright.config.ts. */
const base = {
  testDir: path.join(__dirname, '..', '..', 'specs'),
  testMatch: areas.CONTRACT_SPEC_FILES,
  grepInvert: areas.LEFT_OUT,
  workers: 1,
  use: { trace: 'off' },
} as const;

type Fixtures = [{ faultGroup: readonly FaultName[] }, { mockSettings: MockTargetSettings }];

const wholeSuite = (name: string, mock: MockTargetSettings): Project<Fixtures[0], Fixtures[1]> => ({ ...base, name, use: { ...base.use, mockSettings: mock } });

const waits = (name: FaultName, column: Column) => column === 'blind' && areas.waitsForWindows(name);

/** The groups test:faults made (groups.ts); a direct run of this config gives each fault a worker of its own. */
const GROUPS: FaultGroups = process.env.LP_FAULT_GROUPS ? (JSON.parse(process.env.LP_FAULT_GROUPS) as FaultGroups) : singleFaults(FAULT_NAMES);

function groupProjectOf(group: readonly FaultName[], index: number, column: Column): Project<Fixtures[0], Fixtures[1]> {
  return {
    ...base,
    name: inColumn(groupProject(group, index), column),
    // Read by reporter.ts, which reports each test under its fault.
    metadata: { faults: group, column },
    // Only the tests that state a rule of the group: a test failing because the fault broke something else is a catch by accident.
    grep: ruleGrep(...group.map((name) => FAULTS[name].rule)),
    // The faults are switched on one a test (specs/fixtures: _brokenRule); the blind rate faults' project has its window.
    use: {
      ...base.use,
      mockSettings: settings(
        column,
        group.filter((name) => waits(name, column)),
      ),
      faultGroup: group,
    },
  };
}

export default defineConfig<Fixtures[0], Fixtures[1]>({
  reporter: [[path.join(__dirname, 'reporter.ts'), { outputFile: path.resolve(areas.RESULTS_FILE) }]],
  outputDir: path.resolve(path.dirname(areas.RESULTS_FILE), 'test-results'),
  // Four more workers than cores: blind projects spend much of their time waiting for rate windows, and each short fault project's worker waits for its start
  // (on 2 idle cores: 219 s with two more, 183 s with four).
  workers: availableParallelism() + 4,
  retries: 0,
  // A fault may make a test wait (a 429 retried, a walk that never ends): bounded like every test.
  timeout: 30_000,
  projects: [
    ...COLUMNS.flatMap((column) => [
      wholeSuite(inColumn(areas.SOUND_PROJECT, column), settings(column, [])),
      ...MATRIX_PROFILES.map(({ name, profile }) => wholeSuite(inColumn(areas.variantProject(name), column), settings(column, [], profile))),
    ]),
    // Blind rate faults wait for real windows: started early, their waits overlap the others' work.
    ...[...COLUMNS]
      .reverse()
      .flatMap((column) => GROUPS[column].flatMap((group, i) => (group.some((name) => waits(name, column)) ? [groupProjectOf(group, i, column)] : []))),
    ...COLUMNS.flatMap((column) => GROUPS[column].flatMap((group, i) => (group.some((name) => waits(name, column)) ? [] : [groupProjectOf(group, i, column)]))),
  ],
});
