/** Node children up once they print a first stdout line (the mock, its faults CLI, the bench's servers): a crash shows as an exit, and nothing is shared. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, tsNodeArgs } from '../../common/root.ts';
import type { ClientConfig } from '../clients.ts';

const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 3_000;
const STDERR_TAIL = 2_000;
/** Request log lines kept: more than any run of the suite makes. */
const MAX_LOG_LINES = 100_000;

const MOCK_ENTRIES = { mock: 'mock/cli.ts', faults: 'mock/faults/cli.ts' } as const;

export interface MockProcessOptions {
  /** V8 options of the node process. */
  readonly nodeFlags?: readonly string[];
  /** `faults`: the CLI that takes `--fault <name>`. */
  readonly entry?: keyof typeof MOCK_ENTRIES;
}

/** The line the mock's CLI prints once it listens. */
interface ReadyLine {
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly controlUrl: string | null;
  /** The CA certificate's file of `--tls` (null with `--cert`); absent without TLS. */
  readonly caFile?: string | null;
  /** `host:port` the names of `--host-name` must lead to; absent without it. */
  readonly address?: string;
}

export type NodeChild = Awaited<ReturnType<typeof startNode>>;
export type MockProcess = Awaited<ReturnType<typeof startMockProcess>>;

/** Writes `clients` to a temporary clients file and returns its path (for `--clients`). */
export function clientsFile(clients: readonly ClientConfig[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lp-mock-')), 'clients.json');
  writeFileSync(file, JSON.stringify(clients));
  return file;
}

/** Children still running, killed when the driver exits: one listener for all (Node warns past ten). */
const running = new Set<ChildProcessWithoutNullStreams>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

/** Stops every child still running: on a driver's end, its error, or a signal. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child)));
}

async function stopChild(child: ChildProcessWithoutNullStreams): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  child.kill('SIGTERM');
  await once(child, 'exit');
  clearTimeout(kill);
}

function procFile(pid: number, file: 'stat' | 'status'): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** `node <args>` in the project root, resolved once it prints its first stdout line; `onStderr` sees each line of its stderr. */
export async function startNode(name: string, args: readonly string[], onStderr: (line: string) => void = () => {}) {
  const child = spawn(process.execPath, [...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
  running.add(child);
  let stderr = '';
  let status: string | undefined;
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr = `${stderr}${line}\n`.slice(-STDERR_TAIL);
    onStderr(line);
  });
  child.on('exit', (code, signal) => {
    status = signal ? `signal ${signal}` : `exit code ${code}`;
    running.delete(child);
  });
  const exited = once(child, 'exit').then(() => Promise.reject(new Error(`exited before it was ready (${status})`)));
  // Later lines are read and dropped, so that the pipe keeps draining.
  const firstLine = once(createInterface({ input: child.stdout }), 'line', { signal: AbortSignal.timeout(START_TIMEOUT_MS) });
  const ready = await Promise.race([firstLine, exited]).catch(async (error: Error) => {
    await stopChild(child);
    const why = error.name === 'AbortError' ? `printed no ready line within ${START_TIMEOUT_MS / 1000} s` : error.message;
    throw new Error(`${name} ${why}; its stderr ended with: ${stderr.trim() || '(nothing)'}`);
  });
  exited.catch(() => {});
  const pid = child.pid as number;
  return {
    pid,
    /** Its first stdout line (the mock's {"authUrl","baseUrl",…}). */
    ready: String(ready[0]),
    /** How it ended (`exit code 1`, `signal SIGSEGV`), or undefined while it runs. */
    ended: () => status,
    stderrTail: () => stderr,
    /** Resident memory in KiB: VmRSS now, VmHWM its peak; NaN without /proc. */
    memoryKiB: (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(procFile(pid, 'status'))?.[1] ?? Number.NaN),
    /** CPU seconds used so far (utime and stime: fields 14 and 15 of stat, after the command's closing parenthesis; 100 ticks a second); NaN without /proc. */
    cpuSeconds: () => {
      const stat = procFile(pid, 'stat');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    /** SIGTERM, then SIGKILL after a grace period; resolves once it has exited. */
    stop: () => stopChild(child),
  };
}

/** Starts `npm run mock -- <args>` (or the faults CLI), on free ports unless `args` name them, and resolves once it printed its URLs. */
export async function startMockProcess(args: readonly string[], { nodeFlags = [], entry = 'mock' }: MockProcessOptions = {}) {
  const log: string[] = [];
  const child = await startNode('The mock', tsNodeArgs(MOCK_ENTRIES[entry], args, nodeFlags), (line) => {
    if (/^(auth|api) [A-Z]+ \//.test(line) && log.length < MAX_LOG_LINES) log.push(line);
  });
  /** Its request log so far, one line per request (`api GET /api/v2/users 200 1.2ms`), when started with `--log`. */
  return { ...child, ...(JSON.parse(child.ready) as ReadyLine), requestLog: (): readonly string[] => [...log] };
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

/** Runs `tasks` at most `limit` at a time: child processes started side by side without crowding the cores. */
export async function pooled<T>(tasks: ReadonlyArray<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < tasks.length; index = next++) results[index] = await (tasks[index] as () => Promise<T>)();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
