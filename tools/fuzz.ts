/**
 * `npm run fuzz`: the fuzz spec's generators and oracle (mock/test/fuzz-harness.ts) at high count against the mock in a child process, bounded by a count and a
 * time; exits 1 on any 5xx, hang, bare close, a crash of the mock, or a valid request refused (checked every 500 requests). The seed is printed; `--seed` (or
 * LP_FUZZ_SEED) replays the same requests.
 */
import fc from 'fast-check';
import { fuzzRequest } from '../mock/test/arbitraries/fuzz-request.arbitrary.ts';
import { FUZZ_CLIENTS, type FuzzRequest, FuzzSession, problemWith, showRequest } from '../mock/test/fuzz-harness.ts';
import { integerFlags, runMain } from '../common/flags.ts';
import { clientsFile, type MockProcess, withMockProcess } from '../mock/test/mock-process.ts';

const freshSeed = Number(process.env.LP_FUZZ_SEED ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0);
const flags = integerFlags('fuzz', process.argv.slice(2), {
  requests: { default: 100_000, min: 1, max: 10_000_000, about: 'stop after this many requests' },
  seconds: { default: 240, min: 1, max: 3_600, about: 'stop after this many seconds' },
  seed: { default: freshSeed, min: -(2 ** 31), max: 2 ** 31 - 1, about: 'the same seed replays the same requests', shown: 'LP_FUZZ_SEED, else a fresh one' },
  concurrency: { default: 16, min: 1, max: 256, about: 'requests in flight at once' },
});

/** Each exchange; the mock answers in milliseconds even under this load, so this fires only on a hang. */
const EXCHANGE_TIMEOUT_MS = 5_000;
/** Requests are generated in batches of this many, batch i from seed + i: replayable without holding them all. */
const BATCH = 1_000;
const ALIVE_EVERY = 500;
const PROGRESS_EVERY_MS = 5_000;
/** Problems shown in the report; the count covers all. */
const SHOWN_PROBLEMS = 10;

async function main(): Promise<number> {
  console.log(
    `fuzz: up to ${flags.requests} requests or ${flags.seconds} s, concurrency ${flags.concurrency}, seed ${flags.seed} (replay: --seed ${flags.seed})`,
  );
  return withMockProcess(['--clients', clientsFile(FUZZ_CLIENTS)], [], run);
}

async function run(mock: MockProcess): Promise<number> {
  const session = new FuzzSession(mock, EXCHANGE_TIMEOUT_MS);
  const counts = new Map<string, number>();
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (text: string) => problemCount++ < SHOWN_PROBLEMS && problems.push(text);
  let sent = 0;
  let batch: FuzzRequest[] = [];
  let stopReason: string | undefined;
  const started = performance.now();
  let lastProgress = started;
  const next = (): FuzzRequest | undefined => {
    if (performance.now() >= started + flags.seconds * 1000) stopReason ??= `the ${flags.seconds} s cap`;
    if (stopReason !== undefined || sent >= flags.requests) return undefined;
    if (sent % BATCH === 0) batch = fc.sample(fuzzRequest, { seed: flags.seed + sent / BATCH, numRuns: BATCH });
    return batch[sent++ % BATCH];
  };
  const checkAlive = async () => {
    const ended = mock.ended();
    const dead = ended === undefined ? await session.alive() : (stopReason = `the mock stopped (${ended}); stderr: ${mock.stderrTail()}`);
    if (dead !== undefined) problem(ended === undefined ? `after ${sent} requests: ${dead}` : dead);
  };
  let done = 0;
  const worker = async () => {
    for (let request = next(); request !== undefined; request = next()) {
      const outcome = await session.send(request);
      const found = problemWith(request, outcome);
      // Besides statuses and failures: an answer the oracle refused (bad-body), a close it accepts (abandoned).
      let key = outcome.kind === 'response' ? String(outcome.status) : outcome.kind;
      if (found !== undefined && outcome.kind === 'response' && outcome.status < 500) key = 'bad-body';
      if (found === undefined && outcome.kind !== 'response') key = 'abandoned';
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (found !== undefined) problem(`${showRequest(request)} got ${found}`);
      if (++done % ALIVE_EVERY === 0) await checkAlive();
      const now = performance.now();
      if (now - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = now;
        const seconds = (now - started) / 1000;
        const rss = (mock.memoryKiB('VmRSS') / 1024).toFixed(0);
        console.log(`[${seconds.toFixed(0).padStart(4)} s] ${done} requests, ${(done / seconds).toFixed(0)}/s, problems ${problemCount}, mock RSS ${rss} MiB`);
      }
    }
  };
  await Promise.all(Array.from({ length: flags.concurrency }, worker));
  await checkAlive();
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${done} requests in ${seconds.toFixed(1)} s (${(done / seconds).toFixed(0)}/s)${stopReason ? `, stopped by ${stopReason}` : ''}`);
  console.log('count per status:');
  for (const [status, n] of [...counts].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${status.padEnd(9)} ${n}`);
  const fiveHundreds = [...counts].filter(([status]) => status.startsWith('5')).reduce((a, [, n]) => a + n, 0);
  console.log(`5xx: ${fiveHundreds}, hangs: ${counts.get('hang') ?? 0}, crashes: ${mock.ended() === undefined ? 0 : 1}`);
  if (problemCount > 0) {
    console.log(`\n${problemCount} problems${problemCount > problems.length ? ` (first ${problems.length})` : ''}:`);
    for (const p of problems) console.log(`  ${p}`);
    console.log(`replay: npm run fuzz -- --seed ${flags.seed} --requests ${done}`);
  }
  console.log(problemCount > 0 ? '\nFUZZ FAILED' : '\nfuzz passed: no 5xx, no hang, no crash, every 4xx with a JSON error body');
  return problemCount > 0 ? 1 : 0;
}

runMain(main, 'fuzz: ');
