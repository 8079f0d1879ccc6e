/**
 * `npm run test:faults`: proves the contract suite catches every fault of the mock and raises no false alarm against any legal profile, in both columns
 * (areas.ts). The suite's tests listed (to group the faults: groups.ts), one Playwright child run (faults.config.ts), then the matrix on the terminal and in
 * reports/faults/fault-matrix.md, and last the line CI adds up.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FAULT_NAMES, isFaultName } from '../../mock/faults/index.ts';
import { COLUMNS, inColumn, RESULTS_FILE, SOUND_PROJECT, variantProject } from './areas.ts';
import { isMatrixProfile, MATRIX_PROFILES } from './profiles.ts';
import { helpPointer, parseCommandLine, runMain } from '../../common/flags.ts';
import { buildMatrix, checkCounts, headline, renderReport, type RunOutcome } from './matrix.ts';
import { ROOT } from '../../common/root.ts';
import { runPlaywright } from '../run-playwright.ts';
import { groupFaults, groupProject } from './groups.ts';
import { listedTests } from '../../harness/report/rules-cli.ts';

const CONFIG = path.join(ROOT, 'tools', 'fault-matrix', 'faults.config.ts');
const REPORT = path.join(path.dirname(RESULTS_FILE), 'fault-matrix.md');
/**
 * Default of `--limit`, only so that a hang cannot hold a CI runner for good. The run takes about 3.5 minutes on 2 idle cores, several times that on a loaded
 * one; a run stopped by our own limit would count what it did not reach as failures, so the limit is far above that, inside a CI job's 90 minutes.
 */
const DEFAULT_LIMIT_MINUTES = 45;
const USAGE = `Usage: npm run test:faults -- [flags] [<name>…]

  <name>…            only these faults and legal profiles, and the sound mock (default: every fault and profile);
                     faults of mock/faults/catalogue.ts (docs/fault-matrix.md lists them), profiles ${MATRIX_PROFILES.map((p) => p.name).join(', ')}
  --limit <minutes>  stop the child run after this many minutes, 1 to 120 (default ${DEFAULT_LIMIT_MINUTES})
  --help, -h         this text

The matrix goes to the terminal and ${REPORT}; exits 1 when anything failed.`;
/** Variables of the caller that must not reach the child: it runs the embedded mock whatever .env says. */
const INHERITED_NOT = /^(LP_|PLAYWRIGHT_|PW_|TEST_)/;

async function main(): Promise<number> {
  const started = Date.now();
  const { values, positionals } = parseCommandLine('test:faults', USAGE, {
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: { limit: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  const limitMinutes = values.limit === undefined ? DEFAULT_LIMIT_MINUTES : Number(values.limit);
  if (!(limitMinutes > 0 && limitMinutes <= 120)) throw new Error(`--limit takes minutes from 1 to 120, got "${values.limit}".`);
  const unknown = positionals.find((arg) => !isFaultName(arg) && !isMatrixProfile(arg));
  if (unknown !== undefined)
    throw new Error(
      `"${unknown}" is neither a fault of mock/faults/catalogue.ts nor a profile of tools/fault-matrix/profiles.ts.${helpPointer('test:faults')}`,
    );
  const full = positionals.length === 0;
  const chosen = {
    faults: full ? [...FAULT_NAMES] : positionals.filter(isFaultName),
    variants: full ? MATRIX_PROFILES.map((p) => p.name) : positionals.filter(isMatrixProfile),
  };
  console.log(
    `test:faults: ${chosen.faults.length} faults (the tests that state their rules), ${chosen.variants.length} legal profiles and the sound mock (the whole suite)`,
  );
  const results = path.join(ROOT, RESULTS_FILE);
  rmSync(results, { force: true });
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !INHERITED_NOT.test(name)));
  // One seed for the fast-check property, so that a fault it catches only with some seeds does not flap in the matrix.
  env.LP_PROPERTY_SEED = '1';
  // The rules each test of the suite states, as `npm run rules` lists them.
  const groups = groupFaults(
    chosen.faults,
    listedTests().map((t) => t.declared),
  );
  env.LP_FAULT_GROUPS = JSON.stringify(groups);
  const projects = full
    ? []
    : COLUMNS.flatMap((column) => [
        ...[SOUND_PROJECT, ...chosen.variants.map(variantProject)].map((p) => inColumn(p, column)),
        ...groups[column].map((group, i) => inColumn(groupProject(group, i), column)),
      ]);
  const code = await runPlaywright('test:faults: the child run', ['--config', CONFIG, ...projects.map((p) => `--project=${p}`)], env, limitMinutes * 60_000);
  if (!existsSync(results)) throw new Error(`the child run exited with ${code} and wrote no outcome (${RESULTS_FILE}); see its output above.`);
  const run = JSON.parse(readFileSync(results, 'utf8')) as RunOutcome;
  const matrix = buildMatrix(run, chosen);
  console.log(`\n${renderReport(matrix, { whole: false })}`);
  writeFileSync(path.join(ROOT, REPORT), renderReport(matrix));
  console.log(`the whole matrix, every catching test listed: ${REPORT}`);
  const counts = checkCounts(matrix);
  // A stopped run has tests that never ran; the matrix counts them, and this makes sure the line is not green.
  if (run.status !== 'passed' && run.status !== 'failed' && counts.failed === 0) counts.failed = 1;
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`${headline(matrix)} (${Math.floor(seconds / 60)} min ${seconds % 60} s)`);
  console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped > 0 ? `, ${counts.skipped} skipped` : ''}`);
  return counts.failed > 0 ? 1 : 0;
}

runMain(main, (error) => {
  console.log(`test:faults stopped: ${(error as Error).message}`);
  console.log('0 passed, 1 failed');
  return 1;
});
