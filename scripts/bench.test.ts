/**
 * Keeps `npm run bench` working without timing anything: the bench's arithmetic and flags, and its
 * smallest piece run for real in quick mode (a few seconds). What the figures are is never asserted,
 * only that each target is printed with a ratio and a verdict; the full bench judges the figures.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import type { ReplyTable } from './bench/bare-server.ts';
import { startBare, stopAll } from './bench/children.ts';
import { KIND_HEADER } from './bench/farm.ts';
import { nextPathOf } from './bench/http-client.ts';
import { PIECES, parseBenchArgs } from './bench/options.ts';
import { formatTarget, holds, median, percentile, sortedSamples, summarise, type Target } from './bench/report.ts';
import { ROOT, tsNodeArgs } from '../harness/root.ts';

test.describe('bench arithmetic', () => {
  test('percentiles are nearest-rank samples of a numeric sort', () => {
    const sorted = sortedSamples([10, 9, 2, 1, 100, 3, 4, 5, 6, 7, 8]);
    expect(Array.from(sorted.slice(0, 3))).toEqual([1, 2, 3]);
    expect(percentile(sorted, 50)).toBe(6);
    expect(percentile(sorted, 99)).toBe(100);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile(new Float64Array(), 50)).toBeNaN();
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });

  const cases: Array<{ target: Target; holds: boolean; verdict: string }> = [
    { target: { name: 'a', measured: 0.71, bound: 0.7, kind: 'min', detail: '' }, holds: true, verdict: 'PASS' },
    { target: { name: 'b', measured: 0.69, bound: 0.7, kind: 'min', detail: '' }, holds: false, verdict: 'FAIL' },
    { target: { name: 'b2', measured: 0.6996, bound: 0.7, kind: 'min', detail: '' }, holds: false, verdict: 'FAIL' },
    { target: { name: 'c', measured: 1.3, bound: 1.3, kind: 'max', detail: '' }, holds: true, verdict: 'PASS' },
    { target: { name: 'd', measured: Number.NaN, bound: 1.3, kind: 'max', detail: '', error: 'no samples' }, holds: false, verdict: 'ERROR' },
  ];
  for (const { target, holds: expected, verdict } of cases) {
    test(`target ${target.name} (${target.measured} against ${target.kind} ${target.bound}) reads ${verdict}`, () => {
      expect(holds(target)).toBe(expected);
      expect(formatTarget(target).startsWith(verdict)).toBe(true);
      // A miss never prints as its bound: 0.6996 against 0.7 reads 0.6996, not 0.70.
      if (!expected && target.error === undefined) expect(formatTarget(target)).not.toMatch(/: 0\.70?( |$)/);
    });
  }

  test('quick mode says that targets are not enforced; full mode counts the misses', () => {
    const miss = cases.map((c) => c.target);
    expect(summarise(miss, false).lines.at(-1)).toContain('not enforced');
    expect(summarise(miss, true)).toMatchObject({ failed: 3 });
    expect(summarise(miss, true).lines.at(-1)).toBe('3 of 5 targets did not hold.');
  });

  test('a page’s next link is read from the links member, as a path', () => {
    const body =
      '{"links":{"self":"http://127.0.0.1:1/api/v2/content?limit=100","next":"http://127.0.0.1:1/api/v2/content?limit=100&next=abc_-1"},"data":[{"id":"x","next":"no"}]}';
    expect(nextPathOf(body)).toBe('/api/v2/content?limit=100&next=abc_-1');
    expect(nextPathOf('{"links":{"self":"http://127.0.0.1:1/x"},"data":[{"next":"http://e/x"}]}')).toBeUndefined();
  });
});

test.describe('bench flags', () => {
  const table: Array<{ argv: string[]; ok: boolean; only?: readonly string[]; quick?: boolean }> = [
    { argv: [], ok: true, only: PIECES, quick: false },
    { argv: ['--quick', '--only', 'memory,scale'], ok: true, only: ['scale', 'memory'], quick: true },
    { argv: ['--only=throughput'], ok: true, only: ['throughput'] },
    { argv: ['--only', 'mixed', '--quick'], ok: true, only: ['mixed'], quick: true },
    { argv: ['--json', '--quick'], ok: false },
    { argv: ['--only', 'cpu'], ok: false },
    { argv: ['--only'], ok: false },
    { argv: ['--quick=yes'], ok: false },
    { argv: ['--fast'], ok: false },
  ];
  for (const row of table) {
    test(`${JSON.stringify(row.argv)} is ${row.ok ? 'accepted' : 'refused with a sentence'}`, () => {
      const parsed = parseBenchArgs(row.argv);
      expect(parsed.ok).toBe(row.ok);
      if (parsed.ok) {
        if (row.only) expect(parsed.value.only).toEqual(row.only);
        if (row.quick !== undefined) expect(parsed.value.quick).toBe(row.quick);
      } else expect(parsed.error.length).toBeGreaterThan(10);
    });
  }
});

test.describe('bench servers', () => {
  test.afterAll(() => stopAll());

  test('the bare baseline answers each request kind with its own captured reply, and an unknown kind with a 500', async () => {
    test.setTimeout(30_000);
    const scratch = mkdtempSync(path.join(tmpdir(), 'lp-bench-test-'));
    try {
      const table: ReplyTable = {
        header: KIND_HEADER,
        replies: {
          'first-10': { status: 200, headers: ['content-type', 'application/json'], body: '{"links":{},"data":[]}' },
          throttled: { status: 429, headers: ['retry-after', '60'], body: '{"errors":[]}' },
          logout: { status: 204, headers: [], body: '' },
        },
      };
      const file = path.join(scratch, 'replies.json');
      writeFileSync(file, JSON.stringify(table));
      const bare = await startBare(file);
      try {
        const ask = async (kind: string | undefined) => {
          const res = await fetch(`${bare.url}/api/v2/content`, { headers: kind === undefined ? {} : { [KIND_HEADER]: kind } });
          return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') };
        };
        expect(await ask('first-10')).toEqual({ status: 200, body: '{"links":{},"data":[]}', retryAfter: null });
        expect(await ask('throttled')).toEqual({ status: 429, body: '{"errors":[]}', retryAfter: '60' });
        expect((await ask('logout')).status).toBe(204);
        expect((await ask('token')).status).toBe(500);
        expect((await ask(undefined)).status).toBe(500);
      } finally {
        await bare.stop();
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  test('the mock the bench starts (mock/cli.ts with createMock) never loads the fault layer', async () => {
    // The bench measures the core: a module of mock/faults/ in the CLI's import closure would put the
    // fault layer's seams, not the mock's own code, under every figure.
    const result = await build({
      entryPoints: [path.join(ROOT, 'mock', 'cli.ts')],
      absWorkingDir: ROOT,
      bundle: true,
      platform: 'node',
      write: false,
      metafile: true,
      packages: 'external',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('mock/app.ts');
    expect(inputs.filter((input) => input.startsWith('mock/faults/'))).toEqual([]);
  });
});

test.describe('bench run', () => {
  test('quick mode runs the memory piece and prints each target with a ratio and a verdict', async () => {
    // Two child processes of about a second each, plus bundling; the margin is for a loaded CI machine.
    test.setTimeout(60_000);
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, tsNodeArgs('scripts/bench.ts', ['--quick', '--only', 'memory']), { cwd: ROOT, timeout: 50_000 }, (error, out) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: out }),
      );
    });
    expect(stdout, stdout).toContain('targets are reported but NOT enforced');
    const verdicts = stdout.split('\n').filter((line) => /^\s+(PASS|FAIL|ERROR) /.test(line));
    expect(verdicts, stdout).toHaveLength(2);
    for (const line of verdicts) expect(line, stdout).toMatch(/^\s+(PASS|FAIL)\s+memory: .+: \d+\.\d+/);
    // Quick mode never fails on a figure, only when the bench itself could not run.
    expect(code, stdout).toBe(0);
  });
});
