/**
 * The fault matrix's one table: which spec files state the rules of each area of contracts/rules/. A
 * fault runs only the specs of its rule's area; a legal profile (profiles.ts) runs the whole contract
 * suite. The child run (faults.config.ts) builds its projects from here and tools/fault-matrix/cli.ts
 * reads the outcome by the same project names.
 *
 * A new spec file that states a rule of an area goes into that area's row. A row naming a file that
 * does not exist fails the run: a fault must never pass for want of a spec.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { RULES, type RuleArea } from '../../contracts/rules/index.ts';
import { literalPattern } from '../../harness/verdict/declare.ts';
import { FAULTS, type FaultName } from '../../mock/faults/index.ts';

/** Spec files (under specs/) per rule area. */
export const AREA_SPECS: Readonly<Record<RuleArea, readonly string[]>> = {
  token: ['token.spec.ts'],
  scopes: ['scopes.spec.ts'],
  provider: ['provider-keys.spec.ts', 'pagination-filters.spec.ts'],
  bearer: ['bearer-auth.spec.ts', 'errors.spec.ts'],
  logout: ['logout.spec.ts'],
  lifetime: ['token-lifetime.spec.ts'],
  snapshots: ['pagination-traversal.spec.ts', 'pagination-snapshots.spec.ts', 'pagination-properties.spec.ts'],
  envelope: ['content.spec.ts', 'users.spec.ts'],
  // Items are judged on every page: the walks and the filter tests fetch pages as content.spec.ts does.
  content: ['content.spec.ts', 'users.spec.ts', 'pagination-traversal.spec.ts', 'pagination-properties.spec.ts', 'pagination-filters.spec.ts'],
  users: ['content.spec.ts', 'users.spec.ts'],
  'rate-limit': ['rate-limit-headers.spec.ts', 'rate-limit.spec.ts', 'rate-limit-period.spec.ts'],
  '429': ['rate-limit-headers.spec.ts', 'rate-limit.spec.ts', 'rate-limit-period.spec.ts'],
  errors: ['errors.spec.ts'],
  // The mock judges its callers by these (contracts/rules/client.ts): no spec states one, no fault breaks one.
  client: [],
};

/** The area of a fault: its rule's. */
export function faultArea(name: FaultName): RuleArea {
  return RULES[FAULTS[name].rule].area;
}

/**
 * Tests a child run leaves out: @self tests check the suite, not the target, and @slow tests wait in
 * real time for what the control plane does in milliseconds.
 */
export const LEFT_OUT = [/@self/, /@slow/];

/** Every spec file of the contract suite (the legal profiles run them all), as playwright.config.ts matches them. */
export const CONTRACT_SPEC_FILES = /specs[\\/][^\\/]+\.spec\.ts$/;

/**
 * Where the child run's reporter writes the outcome the runner reads, relative to the working
 * directory (the repository root under npm).
 */
export const RESULTS_FILE = path.join('reports', 'faults', 'results.json');

/** The project of the mock without faults, under the strict profile: the baseline a fault's catches are read against. */
export const SOUND_PROJECT = 'sound';

export function faultProject(name: FaultName): string {
  return `fault:${name}`;
}

/** The project of a legal profile of the matrix (profiles.ts). */
export function variantProject(name: string): string {
  return `profile:${name}`;
}

/**
 * The matrix runs every project twice: as the suite sees the embedded mock (with its control plane),
 * and blind, as it sees a remote service run with LP_QUOTA=1 (no control plane: clocks are waited for
 * in real time, budgets restore only by waiting). `blind:` names the second run of a project.
 */
export type Column = 'control' | 'blind';
export const COLUMNS: readonly Column[] = ['control', 'blind'];

export function inColumn(project: string, column: Column): string {
  return column === 'blind' ? `blind:${project}` : project;
}

/**
 * The rate of a blind run: many times the document's default pace (so the whole suite, paced as it
 * would be against a real service, is hardly slowed by the pacing) in a window short enough that the
 * real-time rate tests, which wait for a window to end, take seconds instead of a minute. The budget
 * is no larger than that: a rate test spends it (up to three times, where no 429 comes), so each
 * request of it is paid for by every real-time rate test of the blind column (300/3s took a quarter
 * longer on those, 150/3s slowed the whole suite by a few percent).
 */
export const BLIND_RATE = '150/3s';

/**
 * Why the fault cannot be checked (its area has no spec, or names a missing one); undefined when it can.
 * A missing file is reported even when others exist: the row promised its rules are checked there.
 */
export function specProblem(fault: FaultName, specsDir: string): string | undefined {
  const area = faultArea(fault);
  const files = AREA_SPECS[area] ?? [];
  const missing = files.filter((file) => !existsSync(path.join(specsDir, file)));
  if (missing.length > 0) return `area ${area} names spec files that do not exist: ${missing.map((f) => `specs/${f}`).join(', ')}`;
  if (files.length === 0) return `area ${area} has no spec file in tools/fault-matrix/areas.ts`;
  return undefined;
}

/** A testMatch for the given files under specs/. */
export function specFileMatch(files: readonly string[]): RegExp[] {
  return files.map((file) => new RegExp(`specs[\\\\/]${literalPattern(file)}$`));
}
