/**
 * The mock under bad input: generated requests of every kind against both origins of a
 * mock started once per worker. Properties, per request: an answer within the timeout (no hang, no
 * bare close), never a 5xx, every 4xx a JSON error body of the origin's shape saying what was wrong,
 * and a valid token request and listing answered 200 right after.
 *
 * Small numRuns on purpose: this runs in every `npm test` and must take a few seconds; the
 * high-count run is `npm run fuzz` (tools/fuzz.ts, same generators and oracle). The seed is
 * printed; LP_FUZZ_SEED=<seed> replays a run, LP_FUZZ_RUNS=<n> changes its length.
 */
import { test as base, expect } from '@playwright/test';
import fc from 'fast-check';
import { createMock, type MockServer } from '../app.ts';
import { controlRequest, logoutRequest } from './arbitraries/control-request.arbitrary.ts';
import { fuzzRequest } from './arbitraries/fuzz-request.arbitrary.ts';
import { oddRequest } from './arbitraries/http.arbitrary.ts';
import { listRequest } from './arbitraries/list-request.arbitrary.ts';
import { tokenRequest } from './arbitraries/token-request.arbitrary.ts';
import { FUZZ_CLIENTS, type FuzzRequest, FuzzSession, problemWith, showRequest } from './fuzz-harness.ts';
import { START_MS } from './http-fixtures.ts';

const TEST_TIMEOUT_MS = 60_000;
/** Each exchange; the mock answers in milliseconds, so this only ever fires on a hang. */
const EXCHANGE_TIMEOUT_MS = 3_000;

const SEED = readInteger('LP_FUZZ_SEED') ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
const RUNS = readInteger('LP_FUZZ_RUNS') ?? 60;

/**
 * Tied to the test timeout: a property that runs out of time fails with fast-check's report (seed,
 * counterexample so far) instead of Playwright's bare timeout. Passed to each fc.assert rather than
 * set with fc.configureGlobal, which would also bind other files' properties run by the same worker.
 */
const FC_PARAMETERS = { seed: SEED, interruptAfterTimeLimit: TEST_TIMEOUT_MS - 10_000, markInterruptAsFailure: true } as const;

function readInteger(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  if (!/^-?\d{1,10}$/.test(text)) throw new Error(`${name} must be an integer, got "${text}".`);
  return Number(text);
}

const test = base.extend<object, { fuzzTarget: { mock: MockServer; session: FuzzSession } }>({
  fuzzTarget: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it has none
    async ({}, use) => {
      // A frozen clock: only generated control requests move it, so a run replays the same way.
      const mock = createMock({ clients: FUZZ_CLIENTS, timeSource: () => START_MS });
      await mock.listen();
      await use({ mock, session: new FuzzSession(mock, EXCHANGE_TIMEOUT_MS) });
      await mock.close();
    },
    { scope: 'worker' },
  ],
});

test.describe.configure({ timeout: TEST_TIMEOUT_MS });

test.beforeAll(() => {
  console.log(`fuzz seed ${SEED}, ${RUNS} runs per property (replay: LP_FUZZ_SEED=${SEED})`);
});

const FAMILIES: ReadonlyArray<{ name: string; arbitrary: fc.Arbitrary<FuzzRequest>; runs: number }> = [
  { name: 'token requests (auth origin)', arbitrary: tokenRequest, runs: RUNS },
  { name: 'listings: limit, filters, next, bearer', arbitrary: listRequest, runs: RUNS },
  { name: 'logout bodies and bearer headers', arbitrary: logoutRequest, runs: Math.ceil(RUNS / 2) },
  { name: 'control plane', arbitrary: controlRequest, runs: Math.ceil(RUNS / 2) },
  { name: 'odd methods, paths, versions, headers, framing (both origins)', arbitrary: oddRequest, runs: RUNS },
  { name: 'the mix', arbitrary: fuzzRequest, runs: RUNS },
];

test.describe('bad input never gets a 5xx, a hang or a bodiless error, and the mock keeps serving', () => {
  for (const family of FAMILIES) {
    test(family.name, async ({ fuzzTarget: { session } }) => {
      test.info().annotations.push({ type: 'seed', description: `LP_FUZZ_SEED=${SEED}` });
      const statuses = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(family.arbitrary, async (request) => {
          const outcome = await session.send(request);
          const key = outcome.kind === 'response' ? String(outcome.status) : outcome.kind;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          const problem = problemWith(request, outcome);
          expect(problem, `${showRequest(request)} got ${problem}`).toBeUndefined();
          const dead = await session.alive();
          expect(dead, `after ${showRequest(request)}: ${dead}`).toBeUndefined();
        }),
        { ...FC_PARAMETERS, numRuns: family.runs },
      );
      test.info().annotations.push({ type: 'statuses', description: JSON.stringify(Object.fromEntries([...statuses].sort())) });
    });
  }
});
