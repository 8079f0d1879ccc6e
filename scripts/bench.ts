/**
 * `npm run bench -- [--quick] [--only <pieces>] [--json <file>]`: the mock's performance and scale
 * targets, each printed with its measured ratio and PASS or FAIL. Results and how to read
 * them: docs/benchmarks.md.
 *
 * Servers run in child processes, the load generator here. Every figure that is judged is a ratio of
 * two things measured in the same run, since absolute numbers on a shared 2-core machine drift.
 * Full mode enforces the targets (exit code 1 when one does not hold); --quick runs a few seconds per
 * figure for CI and only reports them.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { stopAll } from './bench/children.ts';
import { FARM_TEST } from './bench/farm.ts';
import { measureMemory } from './bench/memory.ts';
import { measureMixed } from './bench/mixed.ts';
import { type BenchArgs, type Piece, parseBenchArgs, sizes, USAGE } from './bench/options.ts';
import { summarise, type Target, unmeasured } from './bench/report.ts';
import { measureScale } from './bench/scale.ts';
import { measureStart } from './bench/start.ts';
import { measureThroughput } from './bench/throughput.ts';

/** The whole bench must finish within ten minutes; past this the bench stops its children and fails rather than overrun. */
const DEADLINE_MS = 9.5 * 60_000;

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function machine(): string {
  const list = cpus();
  return `${list.length} cores (${list[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, ${process.platform}/${process.arch}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}

async function runPiece(piece: Piece, args: BenchArgs, record: Record<string, unknown>): Promise<Target[]> {
  const size = sizes(args.quick);
  const started = performance.now();
  let targets: Target[];
  switch (piece) {
    case 'throughput': {
      const t = size.throughput;
      print(
        `\n== Throughput: GET /api/v2/content?limit=100, valid token, rate limiting off; autocannon, ${t.connections} connections, pipelining 1; ${plural(t.rounds, 'round')} of ${t.roundSeconds} s per server`,
      );
      const result = await measureThroughput(t, (line) => print(`  ${line}`));
      record.throughput = { servers: result.servers, notes: result.notes };
      targets = result.targets;
      break;
    }
    case 'scale': {
      const s = size.scale;
      print(
        `\n== Scale: latency of GET /api/v2/content?limit=100 (first page) and of its next page; two mocks measured at once, ${s.connections} connections each; ` +
          `${plural(s.epochs, 'epoch')} × ${plural(s.rounds, 'round')} of ${s.roundSeconds} s per page kind`,
      );
      const result = await measureScale(s, (line) => print(`  ${line}`));
      record.scale = result.figures;
      targets = result.targets;
      break;
    }
    case 'mixed': {
      const m = size.mixed;
      print(
        `\n== Mixed workload, per built-in profile: ${m.clients} SDK tests at once, each ${FARM_TEST}, again and again; ` +
          `mock and bare node:http replaying its replies, ${plural(m.rounds, 'round')} of ${m.roundSeconds} s each per profile`,
      );
      const result = await measureMixed(m, (line) => print(`  ${line}`));
      record.mixed = result.figures;
      targets = result.targets;
      break;
    }
    case 'memory': {
      const m = size.memory;
      print(`\n== Snapshot memory: mock/resources.ts in a process of its own, heap after full collections (--expose-gc)`);
      const result = await measureMemory(m, (line) => print(`  ${line}`));
      record.memory = result.figures;
      targets = result.targets;
      break;
    }
    case 'start': {
      print(
        `\n== Start-up: the installable bundle (npm run build:mock) run by node until its ready line, against node -e ''; ${plural(size.start.runs, 'pair')} of runs`,
      );
      const result = await measureStart(size.start, (line) => print(`  ${line}`));
      record.start = result.figures;
      targets = result.targets;
      break;
    }
  }
  print(`  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  return targets;
}

async function main(): Promise<number> {
  const parsed = parseBenchArgs(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`bench: ${parsed.error}\n`);
    return 2;
  }
  const args = parsed.value;
  if (args.help) {
    print(USAGE);
    return 0;
  }
  const started = performance.now();
  print(`npm run bench${args.quick ? ' -- --quick' : ''}: ${machine()}`);
  print(
    args.quick
      ? 'Quick mode: a few seconds per figure; targets are reported but NOT enforced (shared CI machines are too noisy for that).'
      : 'Full mode: every target is enforced; the exit code is 1 if one does not hold.',
  );

  const record: Record<string, unknown> = {
    machine: machine(),
    node: process.version,
    cores: cpus().length,
    quick: args.quick,
    startedAt: new Date().toISOString(),
  };
  const targets: Target[] = [];
  for (const piece of args.only) {
    try {
      targets.push(...(await runPiece(piece, args, record)));
    } catch (error) {
      // One piece failing (a server that would not start) still leaves the others' figures worth reading.
      print(`  ${piece} failed: ${(error as Error).message}`);
      targets.push(unmeasured(`${piece}: every target of this piece`, Number.NaN, 'min', (error as Error).message));
    }
  }

  print(`\n== Targets (${args.quick ? 'quick mode: reported, not enforced' : 'enforced'})`);
  const { lines, failed } = summarise(targets, !args.quick);
  for (const line of lines) print(`  ${line}`);
  print(`Finished in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  if (args.json !== undefined) writeFileSync(args.json, `${JSON.stringify({ ...record, targets }, null, 2)}\n`);

  // A target that could not be measured at all (a server that did not start) is the bench failing,
  // which quick mode must report too: keeping the script working is what it is for in CI.
  const broken = targets.filter((t) => t.error !== undefined).length;
  if (broken > 0) {
    print(`${broken} figure${broken === 1 ? '' : 's'} could not be measured: exit code 2.`);
    return 2;
  }
  if (args.quick || failed === 0) return 0;
  print('A target did not hold: exit code 1.');
  return 1;
}

const deadline = setTimeout(() => {
  print(`bench: still running after ${DEADLINE_MS / 60_000} minutes; stopping the servers and giving up (exit code 2).`);
  void stopAll().finally(() => process.exit(2));
}, DEADLINE_MS);
deadline.unref();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

main().then(
  async (code) => {
    await stopAll();
    process.exit(code);
  },
  async (error: unknown) => {
    print(`bench: ${(error as Error).message}`);
    await stopAll();
    process.exit(2);
  },
);
