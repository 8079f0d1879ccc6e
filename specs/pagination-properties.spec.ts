/**
 * fast-check query permutations: whatever the query of the content list, a walk keeps every rule of the walk and the filters keep their meaning against an
 * unfiltered walk, or the query is refused where the platform would refuse it (judgeQuery judges each run). Budget: DEFAULT_RUNS × RUN_PAGES + 1 = 41 requests
 * at most, a fifth of the default rate of 200 a minute, and SHRINK_REQUESTS more to shrink a failure. A failure prints its seed (LP_PROPERTY_SEED).
 */
import fc from 'fast-check';
import { contentQuery, describeQuery } from '../harness/arbitraries/query.arbitrary.ts';
import { dataRanges, judgeQuery, takeOracle } from '../harness/walks/filter-oracle.ts';
import { checks, test } from './fixtures/index.ts';
import { type Finding, findingText as line } from '../contracts/rules/finding.ts';

/** The property's test timeout; fast-check stops at half of it, so a long shrink still reports its counterexample. */
const PROPERTY_TIMEOUT_MS = 90_000;
fc.configureGlobal({ interruptAfterTimeLimit: PROPERTY_TIMEOUT_MS / 2 });

/** Default of LP_PROPERTY_RUNS: small enough for a real key's budget (see the header). */
const DEFAULT_RUNS = 10;
/** Requests a run may spend on its walk. */
const RUN_PAGES = 4;
/** Requests shrinking may spend once a run failed: after that, further candidates are skipped. */
const SHRINK_REQUESTS = 60;

test.describe('any content query', () => {
  test(
    'gives a walk keeping every traversal invariant, filtered as the platform filters, or a 4xx the platform would give',
    checks('snapshot.traversal', 'snapshot.next', 'platform.filters', 'platform.query-refusals'),
    async ({ api, config, verdict }, testInfo) => {
      test.setTimeout(PROPERTY_TIMEOUT_MS);
      const oracle = await takeOracle(api);
      const ranges = dataRanges(oracle);
      test.skip(!ranges, 'The target holds no content items with timestamps: nothing to generate dates around.');
      const counts = { refused: 0, complete: 0, sampled: 0 };
      let shrinkRequests: number | undefined;
      // The broken rules of the last run that failed: shrinking ends on the smallest query that does.
      let broken: readonly Finding[] = [];
      const property = fc.asyncProperty(contentQuery(ranges as NonNullable<typeof ranges>), async (query) => {
        // Once a run failed, shrinking may spend only its share of the rate budget.
        fc.pre(shrinkRequests === undefined || shrinkRequests < SHRINK_REQUESTS);
        const outcome = await judgeQuery(api, oracle, query, RUN_PAGES);
        for (const d of outcome.deviations) verdict.platform(d.rule, false, `${line(d)} (query ${describeQuery(query)})`);
        if (shrinkRequests !== undefined) shrinkRequests += outcome.requests;
        else if (outcome.problems.length === 0) counts[outcome.kind]++;
        if (outcome.problems.length > 0) {
          shrinkRequests ??= 0;
          broken = outcome.problems;
          throw new Error(outcome.problems.map((p) => `${p.rule}: ${line(p)}`).join('\n'));
        }
      });
      const details = await fc.check(property, {
        numRuns: config.propertyRuns ?? DEFAULT_RUNS,
        ...(config.propertySeed === undefined ? {} : { seed: config.propertySeed }),
        ...(config.propertyPath === undefined ? {} : { path: config.propertyPath }),
      });
      testInfo.annotations.push({
        type: 'property',
        description: `seed ${details.seed}: ${details.numRuns} runs, ${counts.refused} refused with a 4xx, ${counts.complete} whole walks, ${counts.sampled} sampled walks${details.interrupted ? ' (interrupted at the time limit)' : ''}${oracle.complete ? '' : '; the data set is too large to know whole, so completeness was not checked'}`,
      });
      const query = details.counterexample?.[0];
      const replay = `the property failed after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s) on ${query ? describeQuery(query) : 'no counterexample'}; replay it with LP_PROPERTY_SEED=${details.seed} LP_PROPERTY_PATH="${details.counterexamplePath ?? ''}"`;
      // Not a broken rule: the property itself threw (a request that failed); its error as it came.
      if (details.failed && broken.length === 0)
        throw new Error(`${replay}: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`);
      for (const p of broken) verdict.judge(p.rule, false, `${line(p)}; ${replay}`);
    },
  );
});
