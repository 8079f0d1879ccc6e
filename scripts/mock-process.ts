/**
 * The mock in a child process, started as `npm run mock` starts it, for `npm run fuzz` and
 * `npm run soak`: a crash shows as an exit instead of taking the driver down with it, the driver's
 * own work does not share the mock's event loop, and the mock's memory (VmRSS) is its own.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, tsNodeArgs } from './root.ts';
import type { ClientConfig } from '../mock/clients.ts';

const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 3_000;
const STDERR_TAIL = 2_000;

export interface MockProcess {
  readonly pid: number;
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly controlUrl: string | null;
  /** How it ended (`exit code 1`, `signal SIGSEGV`), or undefined while it runs. */
  ended(): string | undefined;
  /** Resident memory in KiB (VmRSS of /proc/<pid>/status); NaN where /proc is not available. */
  rssKiB(): number;
  /** The last lines the mock wrote on stderr. */
  stderrTail(): string;
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
 * Starts `npm run mock -- <args>` on free ports and resolves once it printed its URLs.
 * @param nodeFlags flags for the node process itself (V8 options). Default none.
 */
export function startMockProcess(args: readonly string[], nodeFlags: readonly string[] = []): Promise<MockProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    tsNodeArgs('mock/cli.ts', ['--auth-port', '0', '--api-port', '0', ...args], nodeFlags),
    { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let stderr = '';
  let status: string | undefined;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk}`.slice(-STDERR_TAIL);
  });
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      status = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    }),
  );
  // The driver must never leave a mock behind, whatever way it ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

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
      const urls = JSON.parse(out.slice(0, newline)) as { authUrl: string; baseUrl: string; controlUrl: string | null };
      resolve({
        pid: child.pid as number,
        ...urls,
        ended: () => status,
        rssKiB: () => rssKiB(child.pid as number),
        stderrTail: () => stderr,
        stop: async () => {
          process.off('exit', killOnExit);
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
  const mock = await startMockProcess(args, nodeFlags);
  console.log(`mock pid ${mock.pid}: ${mock.authUrl} ${mock.baseUrl}`);
  try {
    return await body(mock);
  } finally {
    await mock.stop();
  }
}

/** `--name value` flags of a script: integers only, each with a default and bounds; a bad one exits 2 with a sentence. */
export function integerFlags<K extends string>(argv: readonly string[], spec: Record<K, { default: number; min: number; max: number }>): Record<K, number> {
  const values = Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, (v as { default: number }).default])) as Record<K, number>;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : '';
    if (!(name in spec))
      usage(
        `Unknown argument "${arg}"; flags: ${Object.keys(spec)
          .map((k) => `--${k} <n>`)
          .join(', ')}.`,
      );
    const text = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    const { min, max } = spec[name as K];
    if (text === undefined || !/^-?\d{1,15}$/.test(text) || Number(text) < min || Number(text) > max) {
      usage(`--${name} must be an integer from ${min} to ${max}, got ${text === undefined ? 'nothing' : `"${text}"`}.`);
    }
    values[name as K] = Number(text);
  }
  return values;
}

function usage(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
