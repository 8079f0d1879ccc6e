/**
 * The fault projects as groups: one worker runs the tests of several faults, its embedded mock switched to the fault whose rule each test states
 * (specs/fixtures: `_brokenRule`), instead of a worker process a fault. Two faults share a group only when no test states both their rules: such a test would
 * meet one of them alone. The blind faults that wait for real rate windows keep a worker each, so that their waits overlap.
 */
import { FAULTS, type FaultName } from '../../mock/faults/index.ts';
import { type Column, faultProject, waitsForWindows } from './areas.ts';

export type FaultGroups = Readonly<Record<Column, readonly (readonly FaultName[])[]>>;

/** The faults of a worker at most: enough groups that the workers end together. */
const GROUP_SIZE = 8;

/** Each fault alone, as a direct run of the child config has them. */
export const singleFaults = (faults: readonly FaultName[]): FaultGroups => ({ control: faults.map((f) => [f]), blind: faults.map((f) => [f]) });

/** `testRules`: the rules each test of the suite states. */
export function groupFaults(faults: readonly FaultName[], testRules: readonly (readonly string[])[]): FaultGroups {
  const apart = (a: FaultName, b: FaultName) => {
    const [x, y] = [FAULTS[a].rule, FAULTS[b].rule];
    return x !== y && !testRules.some((rules) => rules.includes(x) && rules.includes(y));
  };
  const grouped = (list: readonly FaultName[]) => {
    const groups: FaultName[][] = [];
    for (const name of list) {
      const fits = groups.find((group) => group.length < GROUP_SIZE && group.every((other) => apart(name, other)));
      if (fits) fits.push(name);
      else groups.push([name]);
    }
    return groups;
  };
  return { control: grouped(faults), blind: [...faults.filter(waitsForWindows).map((f) => [f]), ...grouped(faults.filter((f) => !waitsForWindows(f)))] };
}

/** The project of a group: a fault's own name when alone, as the matrix names its row. */
export const groupProject = (group: readonly FaultName[], index: number) => (group.length === 1 ? faultProject(group[0]!) : `faults-${index + 1}`);
