import { expect, test } from '@playwright/test';
import { FAULT_NAMES, FAULTS } from '../../mock/faults/index.ts';
import { waitsForWindows } from './areas.ts';
import { groupFaults, groupProject } from './groups.ts';

test('no two faults of a group break the same rule, or rules one test states; a blind rate fault that waits keeps its own worker', () => {
  const ruleOf = (name: (typeof FAULT_NAMES)[number]) => FAULTS[name].rule;
  // One test states both rules of the first two faults of different rules.
  const [a, b] = [FAULT_NAMES[0]!, FAULT_NAMES.find((name) => ruleOf(name) !== ruleOf(FAULT_NAMES[0]!))!];
  const groups = groupFaults(FAULT_NAMES, [[ruleOf(a), ruleOf(b)]]);
  for (const column of ['control', 'blind'] as const) {
    expect(groups[column].flat().sort()).toEqual([...FAULT_NAMES].sort());
    for (const group of groups[column]) {
      expect(new Set(group.map(ruleOf)).size).toBe(group.length);
      expect(group.includes(a) && group.includes(b)).toBe(false);
    }
  }
  expect(groups.blind.filter((group) => group.some(waitsForWindows)).every((group) => group.length === 1)).toBe(true);
  expect(groups.control.length).toBeLessThan(FAULT_NAMES.length / 4);
  expect(groupProject([a], 0)).toBe(`fault:${a}`);
  expect(groupProject([a, b], 2)).toBe('faults-3');
});
