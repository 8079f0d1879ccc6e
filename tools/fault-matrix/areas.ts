/**
 * The fault matrix's one table: which spec files state the rules of each area of contracts/rules/ (a
 * fault runs only the specs of its rule's area), and the project names the child run and cli.ts share.
 * A row naming a file that does not exist fails the run: a fault must never pass for want of a spec.
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
  lifetime: ['token-lifetime.spec.ts', 'token.spec.ts'],
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

export const faultArea = (name: FaultName): RuleArea => RULES[FAULTS[name].rule].area;

/** @self tests check the suite, not the target; @slow tests wait in real time for what the control plane does at once. */
export const LEFT_OUT = [/@self/, /@slow/];

/** Every spec file of the contract suite, as playwright.config.ts matches them. */
export const CONTRACT_SPEC_FILES = /specs[\\/][^\\/]+\.spec\.ts$/;

/** The child run's outcome, relative to the repository root. */
export const RESULTS_FILE = path.join('reports', 'faults', 'results.json');

/** The project of the mock without faults, under the strict profile: the baseline a fault's catches are read against. */
export const SOUND_PROJECT = 'sound';

export const faultProject = (name: FaultName) => `fault:${name}`;
export const variantProject = (name: string) => `profile:${name}`;

/**
 * Every project runs twice: with the embedded mock's control plane, and blind, as a remote service run
 * with LP_QUOTA=1 is seen (clocks and budgets only waited for).
 */
export type Column = 'control' | 'blind';
export const COLUMNS: readonly Column[] = ['control', 'blind'];

export const inColumn = (project: string, column: Column) => (column === 'blind' ? `blind:${project}` : project);

/**
 * The rate of a blind run: a window short enough that the rate tests' real-time waits take seconds, and
 * a budget no larger than the suite's pacing needs, since each rate test spends it (up to three times).
 */
export const BLIND_RATE = '150/3s';
/**
 * The rate of a blind run of a fault of the rate areas: a window long enough that a busy machine spends the
 * budget in under half of it, since a Reset named half a period early (rate-reset-header-early) is caught
 * only by a request sent before the window really ends. The whole-suite runs keep the short window: they
 * look for false alarms, and each of their rate tests waits a window or two.
 */
export const BLIND_FAULT_RATE = '150/6s';

/** Whether a fault's blind run waits for real rate windows (and takes BLIND_FAULT_RATE). */
export const waitsForWindows = (name: FaultName) => ['rate-limit', '429'].includes(faultArea(name));

/** Why the fault cannot be checked (its area has no spec, or names a missing one); undefined when it can. */
export function specProblem(fault: FaultName, specsDir: string): string | undefined {
  const area = faultArea(fault);
  const files = AREA_SPECS[area] ?? [];
  const missing = files.filter((file) => !existsSync(path.join(specsDir, file)));
  if (missing.length > 0) return `area ${area} names spec files that do not exist: ${missing.map((f) => `specs/${f}`).join(', ')}`;
  if (files.length === 0) return `area ${area} has no spec file in tools/fault-matrix/areas.ts`;
  return undefined;
}

export const specFileMatch = (files: readonly string[]) => files.map((file) => new RegExp(`specs[\\\\/]${literalPattern(file)}$`));
