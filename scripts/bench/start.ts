/**
 * Start-up of the installable mock: the bundle `npm run build:mock` writes (scripts/build-mock.ts),
 * run by `node` as the installed `lp-mock` bin is, timed from spawn to its ready line (the first line
 * on stdout). The baseline is Node's own start, `node -e ''` timed from spawn to exit, measured in
 * alternate runs so that a neighbour's burst slows both sides of a pair. What `npx` adds in front
 * (about 0.65 s: npm's own start) is the same for every package and left out.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildMock } from '../../mock/build.ts';
import { formatRatio, median, pairedMedian, type Target, unmeasured } from './report.ts';

export interface StartOptions {
  /** Pairs of runs (mock, then bare Node). */
  readonly runs: number;
}

export interface StartResult {
  readonly targets: Target[];
  readonly figures: { readonly mockMs: number[]; readonly nodeMs: number[] };
}

/**
 * The bundle may take at most this many times a bare Node start to print its ready line. In CPU time
 * it costs about 1.5 bare starts (0.2 s against 0.12 to 0.18 s here): it loads node:http and node:crypto,
 * runs its module code and opens two ports. When it compiled its schema validators at start (before
 * they became standalone code) it cost about 0.35 s of CPU more, and its ratio was 3.6 even on a
 * machine so busy that both sides of every pair were slowed.
 */
export const START_BOUND = 3;

/** A start that takes this long failed. */
const RUN_TIMEOUT_MS = 30_000;

/** Milliseconds from spawn until `done` says so (the first stdout line, or the exit), then the process is stopped. */
function timeRun(args: readonly string[], until: 'line' | 'exit'): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let elapsed: number | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (until === 'line' && elapsed === undefined && out.includes('\n')) {
        elapsed = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (until === 'exit' && code === 0) return resolve(performance.now() - started);
      const first = out.split('\n')[0] ?? '';
      if (elapsed !== undefined && first.startsWith('{"authUrl"')) return resolve(elapsed);
      reject(new Error(`${args.join(' ')}: no ready line (exit ${code ?? signal}); stdout "${first.slice(0, 200)}", stderr "${err.trim().slice(-500)}"`));
    });
  });
}

export async function measureStart(o: StartOptions, print: (line: string) => void): Promise<StartResult> {
  const name = `start: installed bundle's ready line ÷ bare node -e ''`;
  const work = mkdtempSync(path.join(tmpdir(), 'lp-bench-start-'));
  const mockMs: number[] = [];
  const nodeMs: number[] = [];
  try {
    const built = await buildMock({ outdir: path.join(work, 'package') });
    print(`bundle ${(built.bytes / 1024).toFixed(0)} KiB (lp-mock@${built.version}); ${o.runs} pairs of runs`);
    for (let i = 0; i < o.runs; i++) {
      mockMs.push(await timeRun([built.bin, '--auth-port', '0', '--api-port', '0'], 'line'));
      nodeMs.push(await timeRun(['-e', ''], 'exit'));
    }
  } catch (error) {
    return { targets: [unmeasured(name, START_BOUND, 'max', (error as Error).message)], figures: { mockMs, nodeMs } };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const range = (ms: number[]) => `${Math.min(...ms).toFixed(0)} / ${median(ms).toFixed(0)} / ${Math.max(...ms).toFixed(0)} ms`;
  print(`ready line (min / median / max): ${range(mockMs)}; bare node -e '': ${range(nodeMs)}`);
  const ratio = pairedMedian(mockMs, nodeMs, (ms) => ms);
  print(`median of the paired ratios: ${formatRatio(ratio)}`);
  return {
    targets: [
      { name, measured: ratio, bound: START_BOUND, kind: 'max', detail: `medians ${median(mockMs).toFixed(0)} ms and ${median(nodeMs).toFixed(0)} ms` },
    ],
    figures: { mockMs, nodeMs },
  };
}
