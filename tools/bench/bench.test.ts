/**
 * Keeps `npm run bench` working without judging a timing: how figures read, the bare server's reply
 * table, that the mock it measures is the one users run, and one piece run for real in quick mode.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import { KIND_HEADER } from './bare-server.ts';
import { type Figure, formatFigure, median, nextPathOf } from './bench.ts';
import { ROOT } from '../../common/root.ts';
import { startNode, stopAll } from '../../mock/test/mock-process.ts';

test.afterAll(() => stopAll());

const figures: Array<{ figure: Figure; reads: RegExp }> = [
  {
    figure: { name: 'a', ratio: 0.91, bound: 0.9, kind: 'min', sides: 'mock 91 req/s; bare 100 req/s' },
    reads: /^PASS +a ≥ 0.9: 0.910 \(mock 91 req\/s; bare 100 req\/s\)$/,
  },
  { figure: { name: 'b', ratio: 0.8996, bound: 0.9, kind: 'min', sides: '' }, reads: /^FAIL +b ≥ 0.9: 0.900 / },
  { figure: { name: 'c', ratio: 3.5, bound: 3, kind: 'max', sides: '' }, reads: /^FAIL +c ≤ 3: 3.500/ },
  { figure: { name: 'd', ratio: Number.NaN, bound: 3, kind: 'max', sides: '', error: 'no ready line' }, reads: /^ERROR d: not measured: no ready line$/ },
];
for (const { figure, reads } of figures)
  test(`figure ${figure.name} (${figure.ratio} against ${figure.kind} ${figure.bound}) reads ${reads.source.slice(1, 6)}`, () => {
    expect(formatFigure(figure)).toMatch(reads);
  });

test('medians, and a page’s next link read from its links member as a path', () => {
  expect(median([3, 1, 2, 10])).toBe(2.5);
  expect(median([3, 1, 2])).toBe(2);
  const body =
    '{"links":{"self":"http://127.0.0.1:1/api/v2/content?limit=100","next":"http://127.0.0.1:1/api/v2/content?limit=100&next=abc_-1"},"data":[{"next":"no"}]}';
  expect(nextPathOf(body)).toBe('/api/v2/content?limit=100&next=abc_-1');
  expect(nextPathOf('{"links":{"self":"http://127.0.0.1:1/x"},"data":[{"next":"http://e/x"}]}')).toBeUndefined();
});

test('the bare server answers each kind with its captured reply, and an unknown kind with a 500', async () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'lp-bench-test-'));
  try {
    const file = path.join(scratch, 'replies.json');
    writeFileSync(
      file,
      JSON.stringify({
        default: { status: 200, headers: ['content-type', 'application/json'], body: '{"data":[]}' },
        logout: { status: 204, headers: [], body: '' },
      }),
    );
    const bare = await startNode('bare', ['--import', 'tsx', 'tools/bench/bare-server.ts', file]);
    const url = (JSON.parse(bare.ready) as { url: string }).url;
    const ask = async (kind?: string) => {
      const res = await fetch(url, { headers: kind === undefined ? {} : { [KIND_HEADER]: kind } });
      return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
    };
    expect(await ask()).toEqual({ status: 200, body: '{"data":[]}', type: 'application/json' });
    expect((await ask('logout')).status).toBe(204);
    expect((await ask('token')).status).toBe(500);
    await bare.stop();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('the mock the bench starts (mock/cli.ts) never loads the fault layer', async () => {
  // A module of mock/faults/ in the CLI's import closure would put the fault layer's seams under every figure.
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

test('quick mode runs a piece and prints its figure with its baseline; a piece it does not know is exit code 2', async () => {
  // Two servers and 5,000 token requests: a few seconds; the margin is for a loaded machine.
  test.setTimeout(90_000);
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', 'tools/bench/bench.ts', ...args], { cwd: ROOT, timeout: 80_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
  const quick = await run(['--quick', '--only', 'memory']);
  expect(quick.stdout, quick.stdout).toContain('bounds reported, NOT enforced');
  expect(quick.stdout).toMatch(/(PASS|FAIL) +memory, .+ ≤ \d+: \d+\.\d+ \(mock .+; bare node:http .+\)/);
  expect(quick.code, quick.stdout).toBe(0);
  const bad = await run(['--only', 'cpu']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('"cpu" is not a piece');
});
