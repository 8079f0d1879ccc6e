/**
 * `npm run load -- <script> [k6 args]`: the LP_* configuration checked the way the script will read it,
 * the bundles built and checked, the report directory created (k6 v0.47 does not), then
 * `k6 run --include-system-env-vars [k6 args] dist/load/<script>.js`. The settings reach `__ENV` from the
 * environment, not `-e` flags, so the client secret never appears in a process list.
 */
import { fail, ok, type Result } from '../../contracts/result.ts';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { unknownSettingWarnings } from '../../contracts/settings.ts';
import { readLoadEnv } from '../lib/env.ts';
import { buildLoad, loadEntries } from './build.ts';
import { answerHelp, helpPointer, runMain, usage } from '../../harness/flags.ts';
import { ROOT } from '../../harness/root.ts';

export const K6_INSTALL_URL = 'https://grafana.com/docs/k6/latest/set-up/install-k6/';

function helpText(scripts: readonly string[]): string {
  return `Usage: npm run load -- <script> [k6 args]

  <script>    the k6 load script to run: ${scripts.join(', ')}
  [k6 args]   passed to \`k6 run\` before the bundle, e.g. --quiet
  --help, -h  this text, in the script's place (after a script, k6's own)

The target and keys come from the LP_* settings, .env included (docs/configuration.md); a production
host only with LP_ALLOW_PRODUCTION=1. k6 is K6_BIN, else the first k6 on PATH; reports go to
LP_REPORT_DIR (default reports/load). Exit codes: k6's own; 2 for an unknown script; 1 for a
configuration, build or missing-k6 problem.`;
}

/** k6's path: K6_BIN when set, else `k6` as found on PATH; either must start (`k6 version`). */
export function findK6(env: NodeJS.ProcessEnv): Result<string> {
  const configured = env.K6_BIN?.trim();
  if (spawnSync(configured || 'k6', ['version'], { env, stdio: 'ignore' }).error === undefined) return ok(configured || 'k6');
  return fail(configured ? `K6_BIN is set to ${configured}, which is not an executable file` : 'k6 is not on PATH and K6_BIN is not set');
}

async function main(args: readonly string[]): Promise<number> {
  const root = ROOT;
  const [script, ...k6Args] = args;
  const scripts = loadEntries(root);
  answerHelp(args.slice(0, 1), helpText(scripts));
  if (script === undefined || !scripts.includes(script)) {
    const what = script === undefined ? 'No script was named' : `"${script}" is not a load script`;
    usage(`load: ${what}; the scripts are ${scripts.join(', ')} (npm run load -- <script> [k6 args]).${helpPointer('load')}`);
  }

  dotenv.config({ path: path.join(root, '.env'), override: false, quiet: true });
  // A bad setting (EnvError) or build ends the run through runMain: `load: <sentence>`, exit 1.
  const env = readLoadEnv(process.env);
  // The preflight's lines, before anything is built or sent: what the run will load, and misspelt LP_* names.
  console.log(`target: remote ${env.baseUrl}, token host ${env.authUrl}, key ${env.clientId}, scopes ${env.scopes.join(',')}`);
  for (const warning of unknownSettingWarnings(process.env)) console.log(warning);
  await buildLoad({ root });
  const bundle = path.join('dist', 'load', `${script}.js`);

  const k6 = findK6(process.env);
  if (!k6.ok) {
    console.error(
      `load: k6 is needed to run ${bundle}, but ${k6.error}. Install k6 v0.47.0 or newer (${K6_INSTALL_URL}) or set K6_BIN to its path; the bundles are built in dist/load/ meanwhile.`,
    );
    return 1;
  }

  mkdirSync(path.resolve(root, env.reportDir), { recursive: true });
  const child = spawn(k6.value, ['run', '--include-system-env-vars', ...k6Args, bundle], { cwd: root, env: process.env, stdio: 'inherit' });
  // Ctrl-C reaches k6 too (same process group): let it stop gracefully and write its summary.
  const ignore = () => {};
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  return new Promise<number>((resolve) => {
    child.on('error', (error) => {
      console.error(`load: could not start ${k6.value}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      process.off('SIGTERM', ignore);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

// Imported (tests), this file only exports.
if (require.main === module) {
  runMain(() => main(process.argv.slice(2)), 'load: ');
}
