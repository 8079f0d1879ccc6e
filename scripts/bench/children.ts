/**
 * The servers under test run in child processes: the load generator lives in the bench's own process,
 * and in-process it would take its event loop from the server it measures. Every child is registered
 * here so that a failing or interrupted bench never leaves one behind.
 *
 * One file for every kind of child (mock, bare server, Prism, a node module) and what /proc says about
 * them and the machine: they share the registry that stopAll empties.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { ROOT, tsNodeArgs } from '../../harness/root.ts';

/** A child that does not report ready within this is a failed start, not a slow one. */
const START_TIMEOUT_MS = 60_000;
/** After SIGTERM, a child gets this long before SIGKILL. */
const STOP_GRACE_MS = 3_000;
/** Last bytes of a child's stderr kept for the error message of a failed start. */
const STDERR_TAIL = 2_000;

export interface Child {
  readonly name: string;
  readonly pid: number;
  /** CPU seconds (user + system) the child has used so far, from /proc; NaN where /proc is not available. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();

/** Stops every child still running (SIGTERM, then SIGKILL after a grace period). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((proc) => stopProcess(proc)));
}

function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) {
    live.delete(proc);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const kill = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS);
    proc.once('exit', () => {
      clearTimeout(kill);
      live.delete(proc);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

/** Busy and total clock ticks of all cores since boot (/proc/stat); NaN off Linux. */
export function machineTicks(): { busy: number; total: number } {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle and iowait are the 4th and 5th numbers of the cpu line.
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/** Clock ticks per second of /proc/<pid>/stat: 100 on every Linux the bench runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat; index 0 here is field 3 (the state).
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

interface SpawnOptions {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Whether a line of the child's stdout says it is ready (that line is handed back to the caller). */
  readonly readyLine?: (line: string) => boolean;
  /** Polled when the child prints nothing to tell it is ready (Prism). */
  readonly readyProbe?: () => Promise<boolean>;
}

interface Started {
  readonly child: Child;
  readonly firstLine: string;
}

function start(options: SpawnOptions): Promise<Started> {
  // A child probed for readiness prints nothing the bench reads: its stdout (Prism's request log) goes
  // to /dev/null, the cheapest sink there is, rather than through this process.
  const stdout = options.readyLine ? 'pipe' : 'ignore';
  const proc = spawn(options.command, options.args, { cwd: ROOT, stdio: ['ignore', stdout, 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  live.add(proc);
  const child: Child = {
    name: options.name,
    pid: proc.pid ?? -1,
    cpuSeconds: () => cpuSecondsOf(proc.pid ?? -1),
    stop: () => stopProcess(proc),
  };
  let stderr = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });

  return new Promise((resolve, reject) => {
    let settled = false;
    let buffered = '';
    let probing: NodeJS.Timeout | undefined;
    const finish = (error: Error | undefined, firstLine = '') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (probing) clearInterval(probing);
      if (error) {
        void stopProcess(proc);
        reject(error);
      } else resolve({ child, firstLine });
    };
    const timer = setTimeout(
      () =>
        finish(new Error(`${options.name} did not report ready within ${START_TIMEOUT_MS / 1000} s; its stderr ended with: ${stderr.trim() || '(nothing)'}`)),
      START_TIMEOUT_MS,
    );
    proc.stdout?.setEncoding('utf8');
    proc.stdout?.on('data', (chunk: string) => {
      if (settled || !options.readyLine) return;
      buffered += chunk;
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (options.readyLine(line)) return finish(undefined, line);
      }
    });
    // The pipe must keep draining once ready, or a chatty child would block on a full pipe.
    proc.stdout?.resume();
    proc.once('error', (error) => finish(new Error(`${options.name} could not be started: ${error.message}`)));
    proc.once('exit', (code, signal) => {
      live.delete(proc);
      finish(new Error(`${options.name} exited before it was ready (${signal ?? `code ${code}`}); its stderr ended with: ${stderr.trim() || '(nothing)'}`));
    });
    if (options.readyProbe) {
      const probe = options.readyProbe;
      let inFlight = false;
      probing = setInterval(() => {
        if (inFlight || settled) return;
        inFlight = true;
        probe().then(
          (ready) => {
            inFlight = false;
            if (ready) finish(undefined);
          },
          () => {
            inFlight = false;
          },
        );
      }, 250);
    }
  });
}

export interface MockChild extends Child {
  readonly authUrl: string;
  readonly baseUrl: string;
}

/**
 * The mock as its users run it (`npm run mock`, which builds it with createMock: the fault layer is
 * never loaded), rate limiting off unless a clients file sets a key's own rate: the bench measures
 * serving, not refusing. `items` seeded content items; `extraArgs` more flags (`--profile`, `--clients`).
 */
export async function startMock(name: string, items: number, extraArgs: readonly string[] = []): Promise<MockChild> {
  const { child, firstLine } = await start({
    name,
    command: process.execPath,
    args: tsNodeArgs('mock/cli.ts', ['--rate', '0', '--items', String(items), ...extraArgs]),
    readyLine: (line) => line.startsWith('{') && line.includes('"baseUrl"'),
  });
  const urls = JSON.parse(firstLine) as { authUrl: string; baseUrl: string };
  return { ...child, authUrl: urls.authUrl, baseUrl: urls.baseUrl };
}

/** The baseline: a bare node:http server answering every request with the reply in `replyFile`. */
export async function startBare(replyFile: string): Promise<Child & { readonly url: string }> {
  const { child, firstLine } = await start({
    name: 'bare node:http server',
    command: process.execPath,
    args: tsNodeArgs('scripts/bench/bare-server.ts', [replyFile]),
    readyLine: (line) => line.startsWith('{') && line.includes('"url"'),
  });
  return { ...child, url: (JSON.parse(firstLine) as { url: string }).url };
}

/**
 * Prism mocking `document` (an OpenAPI file), started as its README shows (`prism mock <document>`)
 * plus host and port; `extraArgs` for other settings (e.g. `--verboseLevel silent`). Prism prints
 * nothing parseable once listening (and nothing at all when silent), so readiness is probed.
 */
export async function startPrism(
  name: string,
  document: string,
  extraArgs: readonly string[],
  probe: (url: string) => Promise<boolean>,
): Promise<Child & { readonly url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const bin = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const { child } = await start({
    name,
    command: process.execPath,
    args: [bin, 'mock', document, '-h', '127.0.0.1', '-p', String(port), ...extraArgs],
    readyProbe: () => probe(url),
  });
  return { ...child, url };
}

/**
 * A port nobody listens on right now. Prism cannot be told to pick one itself (port 0) and report it,
 * so the port is picked here; another process could take it in between, which fails the start loudly.
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A node process running a bench module (a .ts entry) with extra node flags; resolves with its stdout. */
export function runNode(name: string, nodeFlags: readonly string[], entry: string, args: readonly string[], timeoutMs: number): Promise<string> {
  const proc = spawn(process.execPath, tsNodeArgs(entry, args, nodeFlags), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${name} did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    proc.once('error', (error) => {
      clearTimeout(timer);
      live.delete(proc);
      reject(new Error(`${name} could not be started: ${error.message}`));
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      live.delete(proc);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${name} failed (${signal ?? `exit code ${code}`}); its stderr ended with: ${stderr.trim() || '(nothing)'}`));
    });
  });
}
