/**
 * The mock in a child process, started as `npm run mock` starts it (or with faults, as
 * `mock/faults/cli.ts` starts it), for `npm run fuzz`, `npm run soak` and the real-k6 runs of
 * load/k6-runs.test.ts: a crash shows as an exit instead of taking the driver down with it, the
 * driver's own work does not share the mock's event loop, and the mock's memory (VmRSS) is its own.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, tsNodeArgs } from '../../harness/root.ts';
import type { ClientConfig } from '../clients.ts';

const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 3_000;
const STDERR_TAIL = 2_000;
/** Request log lines kept (`--log`): more than any run of the suite makes. */
const MAX_LOG_LINES = 100_000;

/** The CLI a mock process runs: the mock's own, or the one that switches faults on (`--fault <name>`). */
const MOCK_ENTRIES = { mock: 'mock/cli.ts', faults: 'mock/faults/cli.ts' } as const;

export interface MockProcessOptions {
  /** Flags for the node process itself (V8 options). Default none. */
  readonly nodeFlags?: readonly string[];
  /** Which CLI: `faults` takes `--fault <name>` flags. Default `mock`. */
  readonly entry?: keyof typeof MOCK_ENTRIES;
}

export interface MockProcess {
  readonly pid: number;
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly controlUrl: string | null;
  /** The CA certificate's file of `--tls` (null with `--cert`); absent without TLS. */
  readonly caFile?: string | null;
  /** `host:port` the names of `--host-name` must lead to; absent without it. */
  readonly address?: string;
  /** How it ended (`exit code 1`, `signal SIGSEGV`), or undefined while it runs. */
  ended(): string | undefined;
  /** Resident memory in KiB (VmRSS of /proc/<pid>/status); NaN where /proc is not available. */
  rssKiB(): number;
  /** The last lines the mock wrote on stderr. */
  stderrTail(): string;
  /** Its request log so far, one line per request (`api GET /api/v2/users 200 1.2ms`), when started with `--log`. */
  requestLog(): readonly string[];
  /** SIGTERM, then SIGKILL after a grace period; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Writes `clients` to a temporary clients file and returns its path (for `--clients`). */
export function clientsFile(clients: readonly ClientConfig[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lp-mock-')), 'clients.json');
  writeFileSync(file, JSON.stringify(clients));
  return file;
}

/**
 * Mocks still running, killed when the driver exits: one exit listener for all of them (a driver may
 * run a dozen at once, and Node warns past ten listeners).
 */
const running = new Set<ChildProcessWithoutNullStreams>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `npm run mock -- <args>` (or the faults CLI), on free ports unless `args` name them, and resolves once it printed its URLs. */
export function startMockProcess(args: readonly string[], options: MockProcessOptions = {}): Promise<MockProcess> {
  const { nodeFlags = [], entry = 'mock' } = options;
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    // No port flags: the CLI's ports default to free ones, and --host-name takes --port instead.
    tsNodeArgs(MOCK_ENTRIES[entry], args, nodeFlags),
    { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let stderr = '';
  let partial = '';
  const log: string[] = [];
  let status: string | undefined;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk}`.slice(-STDERR_TAIL);
    const lines = `${partial}${chunk}`.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (/^(auth|api) [A-Z]+ \//.test(line) && log.length < MAX_LOG_LINES) log.push(line);
  });
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      status = signal ? `signal ${signal}` : `exit code ${code}`;
      running.delete(child);
      resolve();
    }),
  );
  // The driver must never leave a mock behind, whatever way it ends.
  running.add(child);

  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The mock did not print its URLs within ${START_TIMEOUT_MS / 1000} s; stderr: ${stderr}`));
    }, START_TIMEOUT_MS);
    exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`The mock stopped before it listened (${status}); stderr: ${stderr}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      const urls = JSON.parse(out.slice(0, newline)) as Pick<MockProcess, 'authUrl' | 'baseUrl' | 'controlUrl' | 'caFile' | 'address'>;
      resolve({
        pid: child.pid as number,
        ...urls,
        ended: () => status,
        rssKiB: () => rssKiB(child.pid as number),
        stderrTail: () => stderr,
        requestLog: () => [...log],
        stop: async () => {
          running.delete(child);
          if (status !== undefined) return;
          const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          child.kill('SIGTERM');
          await exited;
          clearTimeout(kill);
        },
      });
    });
  });
}

function rssKiB(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Starts the mock, says where it listens, runs `body` against it and stops it, whatever `body` does. */
export async function withMockProcess<T>(args: readonly string[], nodeFlags: readonly string[], body: (mock: MockProcess) => Promise<T>): Promise<T> {
  const mock = await startMockProcess(args, { nodeFlags });
  console.log(`mock pid ${mock.pid}: ${mock.authUrl} ${mock.baseUrl}`);
  try {
    return await body(mock);
  } finally {
    await mock.stop();
  }
}
