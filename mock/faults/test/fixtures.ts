/** The mock's HTTP fixtures (mock/test/http-fixtures.ts) with faults: `test.use({ faults: [...] })`. */
import type { MockServer } from '../../app.ts';
import { test as base } from '../../test/http-fixtures.ts';
import { createFaultyMock, type FaultName } from '../index.ts';

export { api, expect, getToken, json, ORG, PROVIDER, postToken } from '../../test/http-fixtures.ts';

export const test = base.extend<{ faults: FaultName[]; mock: MockServer }>({
  faults: [[], { option: true }],
  mock: async ({ mockOptions, faults }, use) => {
    const mock = createFaultyMock({ timeSource: () => Date.UTC(2026, 0, 1), ...mockOptions }, faults);
    await mock.listen();
    await use(mock);
    await mock.close();
  },
});
