/** The fault catalogue (mock/faults/catalogue.ts) against the rule catalogue, and the layer's composition of seams. */
import { expect, test } from '@playwright/test';
import { RULE_IDS, RULES } from '../../../contracts/rules/index.ts';
import { FAULT_NAMES, FAULTS, faultsOfRule, isFaultName } from '../index.ts';
import { composeSeams, createFaultyMock } from '../index.ts';

test('every fault names a rule of contracts/rules/index.ts', () => {
  expect(FAULT_NAMES.filter((name) => !RULE_IDS.includes(FAULTS[name].rule))).toEqual([]);
});

test('every contract rule has a fault that breaks it', () => {
  const contract = RULE_IDS.filter((id) => RULES[id].level === 'contract');
  expect(contract.filter((id) => faultsOfRule(id).length === 0)).toEqual([]);
});

test('behaviour the document leaves open is not a fault: JSON token bodies and content:write alone are profile options', () => {
  for (const name of ['token-json-body-accepted', 'content-write-refused']) expect(isFaultName(name)).toBe(false);
  expect(FAULTS['logout-without-token-accepted'].rule).toBe('platform.logout-response');
});

test('an unknown fault is refused with a sentence naming it', () => {
  expect(() => createFaultyMock({}, ['nope' as never])).toThrow('unknown fault "nope" (the faults are listed in mock/faults/catalogue.ts).');
});

test('seams compose in order: each wraps what the ones before made', () => {
  const calls: string[] = [];
  const wrap = (name: string) => (inner: { take: () => string }) => ({ take: () => `${name}(${inner.take()})` });
  const seams = composeSeams([
    { rateLimit: wrap('a') as never },
    { rateLimit: wrap('b') as never },
    { pages: { cursor: (fresh) => `${fresh}+1` } },
    { pages: { cursor: (fresh) => `${fresh}+2` } },
  ]);
  const inner = { take: () => 'core' };
  expect((seams.rateLimit?.(inner as never, {} as never) as unknown as { take: () => string }).take()).toBe('b(a(core))');
  expect(seams.pages?.cursor?.('x', undefined)).toBe('x+1+2');
  expect(calls).toEqual([]);
});
