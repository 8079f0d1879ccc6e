/**
 * `lp-contract`, the command of the lp-contract package (npm run build:suite): the contract suite, `rules`, `profile` and the k6 scripts, run from any folder
 * against the target its LP_* settings name, the environment and a `.env` of the current folder (the environment wins). The suite run is `playwright test
 * --project=contract` with this package's config, as `npm run contract` is in a clone: the same target line, preflight, summary and exit status.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { API_PREFIX } from '../../contracts/endpoints.ts';
import { readDefaulted, readSetting, SettingError } from '../../common/settings.ts';
import { runLoad } from '../../load/cli/k6.ts';
import { answerHelp, parseCommandLine, runMain, usage } from '../../common/flags.ts';
import { ROOT } from '../../common/root.ts';
import { refusedSentence, trippedSentence } from '../run/breaker.ts';
import { readConfig } from '../run/config.ts';
import { onlyGrep } from '../verdict/declare.ts';

/** The exit code of a run the breaker stopped: the target stopped answering, or refused the key, during the run. */
export const STOPPED_EXIT = 3;

const USAGE = `Usage: lp-contract [run] [flags]              the contract suite against the target LP_* names
       lp-contract rules                        every rule, its level and the tests that state it
       lp-contract profile [--compare <file>]   the target's behaviour profile (lp-contract profile --help)
       lp-contract load <script> [k6 args]      a k6 load script (lp-contract load --help)
       lp-contract --version                    this package's version and the API version it checks

Flags of run:
  --full          LP_FULL=1: also the waits longer than a rate window
  --quota         LP_QUOTA=1: spend the key's rate budget to check 429 and Retry-After without a control plane
  --rule <id>     only the tests of this rule (repeatable; lp-contract rules lists the ids)
  --tag <tag>     only the tests with this tag: quota, serial or slow (repeatable)
  --out <dir>     where the reports go (default ./reports): junit.xml, html/ (the rules report rules.html
                  beside index.html), summary/last.json, test-results/. One each for runs at once.
  --help, -h      this text

Settings: the LP_* variables of the environment and of .env in the current folder (the environment wins);
LP_TARGET=remote with LP_BASE_URL, LP_AUTH_URL (or LP_ENVIRONMENT), LP_CLIENT_ID, LP_CLIENT_SECRET for a
service, LP_CONTROL_URL for a mock's control plane. Unset, LP_TARGET=mock runs the embedded mock.

Exit codes of run: 0 every rule it checked holds; 1 a rule is broken, or the run checked nothing; 2 a
setting or usage error, or a preflight that refused the URLs or the key (one sentence naming the setting);
${STOPPED_EXIT} the target stopped answering or refused the key during the run (the rest was skipped).`;

/** `.ts` in a clone (run through tsx), `.js` in the package. */
const EXT = path.extname(__filename);

/** Runs `node <file> <args>` in the current folder (a `.ts` file through tsx); resolves to its exit code. */
function runNode(file: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const child = spawn(process.execPath, [...(file.endsWith('.ts') ? ['--import', 'tsx'] : []), file, ...args], { env, stdio: 'inherit' });
  // Ctrl-C reaches the child too (same process group): it ends its run and prints what it has. SIGTERM reaches only
  // this process (docker stop, as PID 1 of the image): passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/** The environment of a suite run: the flags become the settings they stand for, checked before Playwright starts. */
function suiteEnv(args: readonly string[]): NodeJS.ProcessEnv {
  const { values } = parseCommandLine('run', USAGE, {
    args: [...args],
    options: {
      full: { type: 'boolean' },
      quota: { type: 'boolean' },
      rule: { type: 'string', multiple: true },
      tag: { type: 'string', multiple: true },
      out: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const only = [...(values.rule ?? []), ...(values.tag ?? []).map((tag) => `@${tag.replace(/^@/, '')}`)];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(values.full ? { LP_FULL: '1' } : {}),
    ...(values.quota ? { LP_QUOTA: '1' } : {}),
    ...(only.length > 0 ? { LP_ONLY: only.join(',') } : {}),
    ...(values.out === undefined ? {} : { LP_OUT_DIR: values.out }),
  };
  // What playwright.config.ts reads, read here first: a bad setting is exit 2 with its sentence, not a config error.
  readConfig(env);
  const names = readSetting(env, 'LP_ONLY');
  if (names !== undefined) onlyGrep(names);
  return env;
}

async function runSuite(args: readonly string[]): Promise<number> {
  const env = suiteEnv(args);
  const config = path.join(ROOT, `playwright.config${EXT}`);
  const code = await runNode(require.resolve('@playwright/test/cli'), ['test', '--config', config, '--project=contract'], env);
  const out = path.resolve(readDefaulted(env, 'LP_OUT_DIR'));
  const results = path.join(out, 'test-results');
  if (code !== 0 && refusedSentence(results) !== undefined) return 2;
  if (code !== 0) return trippedSentence(results) === undefined ? code : STOPPED_EXIT;
  // Skipped tests alone exit 0 in Playwright: a run that checked nothing (a --rule whose tests all need what the target lacks) must not read as a pass in CI.
  const summary = JSON.parse(readFileSync(path.join(out, 'summary', 'last.json'), 'utf8')) as { passed: number };
  if (summary.passed > 0) return 0;
  console.error('lp-contract: the run checked nothing (every test it selected was skipped, each with its reason above): not a pass.');
  return 1;
}

function version(): string {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return `lp-contract ${version}, checking the Learning Platform API ${API_PREFIX.slice(API_PREFIX.lastIndexOf('/') + 1)} (resources under ${API_PREFIX})`;
}

async function main(args: readonly string[]): Promise<number> {
  const [first, ...rest] = args;
  if (first === '--version' || first === '-v') {
    console.log(version());
    return 0;
  }
  if (first === 'rules') return runNode(path.join(ROOT, 'harness', 'report', `rules-cli${EXT}`), rest);
  if (first === 'profile') return runNode(path.join(ROOT, 'harness', 'profile', `cli${EXT}`), rest);
  if (first === 'load') {
    // The package carries the bundles built (k6/<script>.js); a clone builds them with npm run load.
    const dir = path.join(ROOT, 'k6');
    const scripts = readdirSync(dir).flatMap((file) => /^([a-z0-9-]+)\.js$/.exec(file)?.[1] ?? []);
    return runLoad(rest, { name: 'lp-contract load', cwd: process.cwd(), scripts, bundle: async (script) => path.join(dir, `${script}.js`) });
  }
  if (first === 'run') return runSuite(rest);
  answerHelp(args, USAGE);
  if (first !== undefined && !first.startsWith('-'))
    usage(`lp-contract: "${first}" is not a command; the commands are run, rules, profile, load (lp-contract --help).`);
  return runSuite(args);
}

if (require.main === module) {
  // Once, here, from the current folder: the real environment wins over .env. Children inherit the result.
  dotenv.config({ quiet: true });
  runMain(
    () => main(process.argv.slice(2)),
    (error) => {
      process.stderr.write(`lp-contract: ${(error as Error).message}\n`);
      return error instanceof SettingError || (error as { cause?: { code?: string } }).cause?.code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
    },
  );
}
