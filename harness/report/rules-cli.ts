/**
 * `npm run rules`: every rule of contracts/rules/ with its level, the tests that state it and what
 * they need of the target, read from the tests' own declarations (`playwright test --list`: nothing
 * runs, nothing is sent). A rule no test states is listed as such. The same text as docs/rules.md (`npm run docs`).
 */
import { spawnSync } from 'node:child_process';
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';
import { coverage, type TestRecord } from './coverage.ts';
import { recordOf } from './summary-reporter.ts';
import { renderRulesMarkdown } from './render.ts';
import { commandName, parseCommandLine, runMain } from '../../common/flags.ts';
import { ROOT } from '../../common/root.ts';

// Resolved, not joined to the root: installed as a package, the suite finds the runner beside it in node_modules.
const PLAYWRIGHT = require.resolve('@playwright/test/cli');
const USAGE = `Usage: ${commandName('rules')} [flags]

  (no flag)   every rule with its level and the tests that state it, on the terminal
  --help, -h  this text

Nothing runs against a target: the tests are only listed (playwright test --list).`;

/** The contract suite's tests as `--list` sees them (every test, slow ones included), with their declarations. */
export function listedTests(): TestRecord[] {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => value !== undefined && !/^(LP_|PLAYWRIGHT_)/.test(name)));
  const run = spawnSync(process.execPath, [PLAYWRIGHT, 'test', '--list', `--reporter=${__filename}`, '--project=contract', '--project=contract-serial'], {
    cwd: ROOT,
    env: { ...env, LP_TARGET: 'mock' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`playwright test --list failed (exit ${run.status}): ${(run.stderr || run.stdout).slice(0, 500)}`);
  // The last line: the config prints the preflight's lines before it.
  const records = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as TestRecord[];
  return [...new Map(records.map((r) => [r.title, r])).values()];
}

/** The reporter of that listing: each test's record, as the summary reporter reads it, on one line. */
export default class ListedTestsReporter implements Reporter {
  onBegin(_config: FullConfig, suite: Suite): void {
    process.stdout.write(`\n${JSON.stringify(suite.allTests().map((test) => ({ ...recordOf(test), status: 'listed' })))}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}

async function main(): Promise<number> {
  parseCommandLine('rules', USAGE, { args: process.argv.slice(2), options: {}, strict: true });
  const items = coverage(listedTests());
  console.log(renderRulesMarkdown(items));
  const untested = items.filter((i) => i.state === 'no test').map((i) => i.id);
  console.log(`\n${items.length} rules; ${untested.length} without a test${untested.length > 0 ? `: ${untested.join(', ')}` : ''}`);
  return 0;
}

if (require.main === module) runMain(main, 'rules: ', 2);
