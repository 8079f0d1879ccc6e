/**
 * Snapshots of a list walk. The isolation and expiry tests change the data or move the clock: @serial, with a control plane; without one, expiry and a snapshot
 * kept alive are the real-time @slow tests, which walk beside the serial phase's spends (playwright.config.ts) with the provider key where there is one. Each
 * walk uses only the newest `next`: the document says nothing of what an older one does.
 */
import { isDeepStrictEqual } from 'node:util';
import { SNAPSHOT_TTL_SECONDS } from '../contracts/limits.ts';
import { walkPageBound } from '../contracts/pagination.ts';
import type { ApiClient } from '../harness/client/api.ts';
import type { Tokens } from '../harness/client/tokens.ts';
import { keyLock } from '../harness/run/key-lock.ts';
import type { Target } from '../harness/run/target.ts';
import type { ControlledItem } from '../harness/client/control.ts';
import { type Oracle, takeOracle } from '../harness/walks/filter-oracle.ts';
import { type ApiResponse, checks, expect, test, type Verdict } from './fixtures/index.ts';
import { expectTraversal, type ListItem, servedLimit, type Walked, type WalkListOptions, walkList } from '../harness/walks/list-walk.ts';

/** Pages of the walk paused twice: a quarter of the set a page gives at least three pages for three items or more. */
const PAUSED_WALK_PAGES = 4;
/**
 * The pause after the second page: short of the 2 minutes by the real seconds a loaded machine may let pass between the end of the pause and the next request
 * arriving (each counts on the target's clock too), so that a slow machine is never read as a snapshot that died early.
 */
const SECOND_PAUSE_SECONDS = SNAPSHOT_TTL_SECONDS - 10;
/** The pause after the first page: with the second, the third request comes well over 2 minutes after the first. */
const FIRST_PAUSE_SECONDS = SNAPSHOT_TTL_SECONDS - SECOND_PAUSE_SECONDS + 5;
/** The pause of the real-time expiry test: a little over the 2 minutes. */
const EXPIRY_PAUSE_SECONDS = SNAPSHOT_TTL_SECONDS + 5;

/**
 * Lets `seconds` pass from `sentAtMs` (when the page before was requested) on the target's clock: moved, or waited for.
 * In real time the walk may resume `lateSeconds` late at most (it may wait for the key's lock), else it is not checked.
 */
type Pause = (seconds: number, sentAtMs: number, lateSeconds?: number) => Promise<unknown>;

/** A walk of about `pages` pages (default three, or more where the target refuses larger pages) over the whole data set, with a hook between pages. */
async function walkInPages(api: ApiClient, oracle: Oracle, pages = 3, afterPage?: WalkListOptions['afterPage']): Promise<Walked> {
  test.skip(!oracle.complete || oracle.items.size < 3, `The data set (${oracle.items.size} items) is too large or too small for a walk of a few pages.`);
  const limit = await servedLimit(api, Math.ceil(oracle.items.size / pages));
  // One item more than the oracle saw: the isolation test creates one, and a snapshot that sees it must fail on that, not on the bound.
  // Awaited: a returned promise loses the test's line (harness/verdict/step.ts).
  return await walkList(api, api.url('listContent', { limit }), { limit, maxPages: walkPageBound(oracle.items.size + 1, limit), afterPage });
}

test.describe('a snapshot', checks([], { needs: ['control'], serial: true }), () => {
  test(
    'hides from the rest of a walk an item created and one modified after its first page; a new walk shows both',
    checks('snapshot.isolation'),
    async ({ api, control, verdict }) => {
      try {
        const oracle = await takeOracle(api);
        let created: ControlledItem | undefined;
        let modified: ListItem | undefined;
        const walked = await walkInPages(api, oracle, undefined, async (page, items) => {
          if (page !== 1) return;
          modified = [...oracle.items.values()].find((item) => !items.some((seen) => seen.id === item.id));
          if (modified) await control.modifyContent(modified.id, { title: 'Changed after the snapshot was taken' });
          created = await control.createContent({ title: 'Created after the snapshot was taken' });
        });
        expectTraversal(walked);
        const walk = `the walk from GET ${walked.firstUrl}`;
        const hidden = !(created && walked.items.has(created.id));
        verdict.contract('snapshot.isolation', hidden, () => `expected ${walk} not to show item ${created?.id}, created after its first page, got it`);
        const shown = walked.items.get(modified?.id ?? '')?.attributes;
        verdict.contract(
          'snapshot.isolation',
          isDeepStrictEqual(shown, modified?.attributes),
          () =>
            `expected ${walk} to show item ${modified?.id} as it was when the walk began, got it as modified after its first page: ${JSON.stringify(shown)}`,
        );
        verdict.contract(
          'snapshot.isolation',
          walked.items.size === oracle.items.size,
          () => `expected ${walk} to hold the ${oracle.items.size} items of the data set when it began, got ${walked.items.size}`,
        );
        const fresh = await takeOracle(api);
        const createdShown = created !== undefined && fresh.items.has(created.id);
        verdict.contract('snapshot.isolation', createdShown, () => `expected a new walk to show item ${created?.id}, created meanwhile, got none`);
        const title = fresh.items.get(modified?.id ?? '')?.attributes?.title;
        verdict.contract(
          'snapshot.isolation',
          title === 'Changed after the snapshot was taken',
          () => `expected a new walk to show the modification of item ${modified?.id}, got title ${JSON.stringify(title)}`,
        );
      } finally {
        // The data back to its seed for whoever comes next.
        await control.reset();
      }
    },
  );
  test(
    'is continued by its newest next 110 s after the previous request, though more than 2 minutes after the first',
    checks('snapshot.alive'),
    async ({ api, control, verdict }) => {
      // The pause counts from when the page was requested, less the time the answer took: the snapshot's clock starts no earlier.
      await expectAliveAfterPauses(api, verdict, (seconds, sentAtMs) => control.advance(seconds - (Date.now() - sentAtMs) / 1000));
    },
  );
  test(
    'is refused with a 4xx after 120 s without a request, and a request without next starts a new one',
    checks('snapshot.expiry', 'platform.obsolete-status'),
    async ({ api, control, verdict }) => {
      const oracle = await takeOracle(api);
      const paused = await walkInPages(api, oracle, undefined, async (page) => {
        if (page === 1) await control.advance(SNAPSHOT_TTL_SECONDS);
      });
      expectRefusedAfterPause(verdict, paused.pages[1]?.response, '120 s');
      const again = await walkInPages(api, oracle);
      expectTraversal(again, 'the walk started again without next');
      const message = () => `expected the walk started again without next to yield ${oracle.items.size} items, got ${again.items.size}`;
      verdict.contract('snapshot.traversal', again.items.size === oracle.items.size, message);
    },
  );
});

test.describe('a snapshot, in real time', checks([], { needs: ['real-time', 'no-control'] }), () => {
  test(
    'is continued by its newest next 110 s after the previous request, though more than 2 minutes after the first',
    checks('snapshot.alive'),
    async ({ api, target, tokens, verdict }) => {
      await walkingBeside(api, target, tokens, FIRST_PAUSE_SECONDS + SECOND_PAUSE_SECONDS, (walker, pause) => expectAliveAfterPauses(walker, verdict, pause));
    },
  );
  test(
    'is refused with a 4xx after a little over 2 minutes without a request, and a request without next starts a new one',
    checks('snapshot.expiry', 'platform.obsolete-status'),
    async ({ api, target, tokens, verdict }) => {
      await walkingBeside(api, target, tokens, EXPIRY_PAUSE_SECONDS, async (walker, pause) => {
        const oracle = await takeOracle(walker);
        const paused = await walkInPages(walker, oracle, undefined, async (page, _items, sentAtMs) => {
          if (page === 1) await pause(EXPIRY_PAUSE_SECONDS, sentAtMs);
        });
        expectRefusedAfterPause(verdict, paused.pages[1]?.response, `${EXPIRY_PAUSE_SECONDS} s`);
        const again = await walkInPages(walker, oracle);
        expectTraversal(again, 'the walk started again without next');
      });
    },
  );
});

/**
 * A walk of a few pages paused FIRST_PAUSE_SECONDS after its first page and SECOND_PAUSE_SECONDS after its second: the
 * third request comes more than 2 minutes after the first, and only "the previous request" keeps the snapshot alive.
 */
async function expectAliveAfterPauses(api: ApiClient, verdict: Verdict, pause: Pause): Promise<void> {
  const oracle = await takeOracle(api);
  // Pages of a quarter of the set: at least three, so the second pause follows a page after the first.
  const walked = await walkInPages(api, oracle, PAUSED_WALK_PAGES, async (page, _items, sentAtMs) => {
    // The second pause leaves 10 s of the 2 minutes: half of it for a late resumption, half for the request.
    if (page === 1) await pause(FIRST_PAUSE_SECONDS, sentAtMs);
    if (page === 2) await pause(SECOND_PAUSE_SECONDS, sentAtMs, (SNAPSHOT_TTL_SECONDS - SECOND_PAUSE_SECONDS) / 2);
  });
  const paused = `the walk paused ${FIRST_PAUSE_SECONDS} s after its first page and ${SECOND_PAUSE_SECONDS} s after its second`;
  const message = () => `expected three pages at least, the third ${SECOND_PAUSE_SECONDS} s after the second, got ${walked.pages.length} (${paused})`;
  verdict.contract('snapshot.alive', walked.pages.length >= 3, message);
  expectTraversal(walked, paused);
  verdict.contract('snapshot.alive', walked.items.size === oracle.items.size, `expected ${oracle.items.size} items, got ${walked.items.size} (${paused})`);
}

/**
 * Runs a real-time walk (`pausedSeconds` of pauses in all) beside the serial phase: with the provider key where there is one, whose budget the spends leave
 * alone, holding its lock (harness/run/key-lock.ts) whenever it sends, so that a test counting that key's requests one by one never counts the walk's.
 */
async function walkingBeside(
  api: ApiClient,
  target: Target,
  tokens: Tokens,
  pausedSeconds: number,
  walk: (walker: ApiClient, pause: Pause) => Promise<void>,
): Promise<void> {
  test.setTimeout(test.info().timeout + pausedSeconds * 1000);
  const lock = keyLock(test.info().project.outputDir, (target.provider ?? target.client).clientId);
  await lock.acquire();
  try {
    const walker = target.provider ? api.as((await tokens.forScopes(undefined, 'provider')).accessToken) : api;
    await walk(walker, async (seconds, sentAtMs, lateSeconds = Number.POSITIVE_INFINITY) => {
      lock.release();
      await new Promise((resolve) => setTimeout(resolve, sentAtMs + seconds * 1000 - Date.now()));
      await lock.acquire();
      const late = (Date.now() - sentAtMs) / 1000 - seconds;
      const why = `Not checked: the walk resumed ${late.toFixed(1)} s after its ${seconds} s pause, the key held by a test counting its requests.`;
      test.skip(late > lateSeconds, why);
    });
  } finally {
    lock.release();
  }
}

function expectRefusedAfterPause(verdict: Verdict, response: ApiResponse | undefined, pause: string): void {
  const asked = response !== undefined;
  verdict.contract('snapshot.traversal', asked, `expected a second page to ask with the newest next after ${pause} without a request, got none`);
  if (!response) return;
  // The newest next after the pause without a request.
  expect(response).toHaveStatus('4xx', 'snapshot.expiry');
  const message = `expected 410 for the next value of an obsolete snapshot, got ${response.status} (GET ${response.request.url})`;
  verdict.platform('platform.obsolete-status', response.status === 410, message);
}
