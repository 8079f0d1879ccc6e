/**
 * What the child run and cli.ts share: the project names, the columns and their rates. A fault runs the tests that declare its rule by their tag, wherever they
 * are: no table says where a rule is stated.
 */
import path from 'node:path';
import { RULES, type RuleArea } from '../../contracts/rules/index.ts';
import { FAULTS, type FaultName } from '../../mock/faults/index.ts';

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

/** Every project runs twice: with the embedded mock's control plane, and blind, as a remote run with LP_QUOTA=1 sees it (clocks, budgets only waited for). */
export type Column = 'control' | 'blind';
export const COLUMNS: readonly Column[] = ['control', 'blind'];

export const inColumn = (project: string, column: Column) => (column === 'blind' ? `blind:${project}` : project);

/**
 * The rate of a blind run: a window short enough that the rate tests' real-time waits take seconds, and a budget no larger than the suite's pacing needs, since
 * each rate test spends it (up to three times).
 */
export const BLIND_RATE = '150/3s';
/**
 * The rate of a blind run of a fault of the rate areas: a window long enough that a busy machine spends the budget in under half of it, since a Reset named
 * half a period early (rate-reset-header-early) is caught only by a request sent before the window really ends. The whole-suite runs keep the short window:
 * they look for false alarms, and each of their rate tests waits a window or two.
 */
export const BLIND_FAULT_RATE = '150/6s';

/** Whether a fault's blind run waits for real rate windows (and takes BLIND_FAULT_RATE). */
export const waitsForWindows = (name: FaultName) => ['rate-limit', '429'].includes(faultArea(name));
