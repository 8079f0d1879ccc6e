/**
 * The fault catalogue: each fault breaks one rule of contracts/rules/, so the fault matrix (`npm run test:faults`) can prove the suite catches it at the rule's
 * level (a contract rule fails a run; a platform rule only with LP_STRICT=1); the rule's area picks the spec files (tools/fault-matrix/areas.ts). Each fault is
 * one entry in the module of the seam it uses (mock/seams.ts; configuration.ts where it needs none); this file gathers them.
 */
import { RULE_IDS } from '../../contracts/rules/index.ts';
import { COMPONENT_FAULTS } from './components.ts';
import { CONFIGURATION_FAULTS } from './configuration.ts';
import { EXCHANGE_FAULTS } from './exchanges.ts';
import type { Fault } from './fault.ts';
import { PAGE_FAULTS } from './pages.ts';
import { RATE_FAULTS } from './rate-limit.ts';

const ALL = { ...CONFIGURATION_FAULTS, ...EXCHANGE_FAULTS, ...COMPONENT_FAULTS, ...RATE_FAULTS, ...PAGE_FAULTS };

export type FaultName = keyof typeof ALL;

/** Every fault, in the order of the rules it breaks (contracts/rules/: by area), then as its module lists it. */
export const FAULT_NAMES = (Object.keys(ALL) as FaultName[])
  .map((name, index) => ({ name, index, rule: RULE_IDS.indexOf(ALL[name].rule) }))
  .sort((x, y) => x.rule - y.rule || x.index - y.index)
  .map((f) => f.name);

export const FAULTS: Readonly<Record<FaultName, Fault>> = Object.fromEntries(FAULT_NAMES.map((name) => [name, ALL[name]])) as Record<FaultName, Fault>;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(ALL, name);
}
