/**
 * `k6 run` of one built load bundle, for `npm run load` (load/cli/run.ts, which builds the bundles first) and `lp-contract load` (whose package carries them
 * built): the LP_* configuration checked the way the script will read it, the report directory created (k6 v0.47 does not), then `k6 run
 * --include-system-env-vars [k6 args] <bundle>`. The settings reach `__ENV` from the environment, not `-e` flags, so the client secret never appears in a
 * process list.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { fail, ok, type Result } from '../../util/result.ts';
import { unknownSettingWarnings } from '../../common/settings.ts';
import { readLoadEnv } from '../lib/env.ts';
import { answerHelp, usage } from '../../common/flags.ts';

export const K6_INSTALL_URL = 'https://grafana.com/docs/k6/latest/set-up/install-k6/';

/** How a user runs a script: `npm run load --` in a clone, `lp-contract load` from the package. */
export interface LoadCommand {
  /** The command before `<script>`. */
  readonly name: string;
  /** Where k6 runs and `.env` is read: report paths are relative to it. */
  readonly cwd: string;
  readonly scripts: readonly string[];
  /** The bundle of `script`, relative to `cwd` (built first when the command builds). */
  bundle(script: string): Promise<string>;
}

function helpText(command: LoadCommand): string {
  return `Usage: ${command.name} <script> [k6 args]

  <script>    the k6 load script to run: ${command.scripts.join(', ')}
  [k6 args]   passed to \`k6 run\` before the bundle, e.g. --quiet
  --help, -h  this text, in the script's place (after a script, k6's own)

The target and keys come from the LP_* settings, .env included (docs/configuration.md); a production
host only with LP_ALLOW_PRODUCTION=1. k6 (v0.47 to v2) is K6_BIN, else the first k6 on PATH, never
downloaded; reports go to LP_REPORT_DIR (default reports/load). Exit codes: k6's own; 2 for an unknown
script; 1 for a configuration, build or missing-k6 problem.`;
}

/** k6's path: K6_BIN when set, else `k6` as found on PATH; either must start (`k6 version`). */
export function findK6(env: NodeJS.ProcessEnv): Result<string> {
  const configured = env.K6_BIN?.trim();
  if (spawnSync(configured || 'k6', ['version'], { env, stdio: 'ignore' }).error === undefined) return ok(configured || 'k6');
  return fail(configured ? `K6_BIN is set to ${configured}, which is not an executable file` : 'k6 is not on PATH and K6_BIN is not set');
}

/** Runs `args` (`<script> [k6 args]`) and resolves to the exit code: k6's own, or 1 or 2 with a sentence. */
export async function runLoad(args: readonly string[], command: LoadCommand): Promise<number> {
  const [script, ...k6Args] = args;
  const { scripts, cwd } = command;
  answerHelp(args.slice(0, 1), helpText(command));
  if (script === undefined || !scripts.includes(script)) {
    const what = script === undefined ? 'No script was named' : `"${script}" is not a load script`;
    usage(`load: ${what}; the scripts are ${scripts.join(', ')} (${command.name} <script> [k6 args]). (${command.name} --help)`);
  }
  dotenv.config({ path: path.join(cwd, '.env'), override: false, quiet: true });
  // A bad setting (EnvError) or build ends the run through runMain: `load: <sentence>`, exit 1.
  const env = readLoadEnv(process.env);
  // The preflight's lines, before anything is built or sent: what the run will load, and misspelt LP_* names.
  console.log(`target: remote ${env.baseUrl}, token host ${env.authUrl}, key ${env.clientId}, scopes ${env.scopes.join(',')}`);
  for (const warning of unknownSettingWarnings(process.env)) console.log(warning);
  const bundle = await command.bundle(script);
  const k6 = findK6(process.env);
  if (!k6.ok) {
    console.error(
      `load: k6 is needed to run ${bundle}, but ${k6.error}. Install k6 v0.47.0 or newer (${K6_INSTALL_URL}) or set K6_BIN to its path; the bundles are built in ${path.dirname(bundle)}/ meanwhile.`,
    );
    return 1;
  }
  mkdirSync(path.resolve(cwd, env.reportDir), { recursive: true });
  const child = spawn(k6.value, ['run', '--include-system-env-vars', ...k6Args, bundle], { cwd, env: process.env, stdio: 'inherit' });
  // Ctrl-C reaches k6 too (same process group): let it stop gracefully and write its summary.
  const ignore = () => {};
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, ignore);
  return new Promise<number>((resolve) => {
    child.on('error', (error) => {
      console.error(`load: could not start ${k6.value}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, ignore);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
