/**
 * The fault catalogue: each fault breaks one rule of contracts/rules/, so that the fault matrix
 * (`npm run test:faults`) can prove the suite catches it, at the rule's level (a contract rule fails
 * a run; a platform rule only with LP_STRICT=1). The rule's area picks the spec files that state it
 * (tools/fault-matrix/areas.ts). Each fault is written once, in the module of this folder of the seam it
 * uses (mock/seams.ts; configuration.ts for those that need no seam, only other options): what it
 * breaks (`*_FAULT_INFO`) beside how (`*_FAULTS`). This file gathers them.
 */
import { RULE_IDS } from '../../contracts/rules/index.ts';
import { COMPONENT_FAULT_INFO } from './components.ts';
import { CONFIGURATION_FAULT_INFO } from './configuration.ts';
import { EXCHANGE_FAULT_INFO } from './exchanges.ts';
import type { FaultInfo } from './fault.ts';
import { PAGE_FAULT_INFO } from './pages.ts';
import { RATE_FAULT_INFO } from './rate-limit.ts';

export type { FaultInfo } from './fault.ts';

const ALL = { ...CONFIGURATION_FAULT_INFO, ...EXCHANGE_FAULT_INFO, ...COMPONENT_FAULT_INFO, ...RATE_FAULT_INFO, ...PAGE_FAULT_INFO };

export type FaultName = keyof typeof ALL;

/** Every fault, in the order of the rules it breaks (contracts/rules/: by area), then as its module lists it. */
export const FAULT_NAMES = (Object.keys(ALL) as FaultName[])
  .map((name, index) => ({ name, index, rule: RULE_IDS.indexOf(ALL[name].rule) }))
  .sort((x, y) => x.rule - y.rule || x.index - y.index)
  .map((f) => f.name);

export const FAULTS: Readonly<Record<FaultName, FaultInfo>> = Object.fromEntries(FAULT_NAMES.map((name) => [name, ALL[name]])) as Record<FaultName, FaultInfo>;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(ALL, name);
}
