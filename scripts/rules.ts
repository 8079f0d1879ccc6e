/**
 * `npm run rules`: every rule of contracts/rules.ts with its level, the tests that state it and what
 * they need of the target, read from the tests' own declarations (`playwright test --list`: nothing
 * runs, nothing is sent). A rule no test states is listed as such.
 *
 *   npm run rules              the list on the terminal
 *   npm run rules -- --write   writes docs/rules.md (the renderer is rulesDocs(), for `npm run docs`)
 *   npm run rules -- --check   exits 1 when docs/rules.md is not current
 *   npm run rules -- --help    these forms
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';
import * as prettier from 'prettier';
import { RULES } from '../contracts/rules/index.ts';
import { RESPONSE_RULES } from '../harness/verdict/response-rules.ts';
import { coverage, type RuleCoverage, type TestRecord } from './rules/coverage.ts';
import type { GeneratedFile } from './docs/generated.ts';
import { parseCommandLine } from './flags.ts';
import { renderRulesMarkdown } from './rules/render.ts';
import { ROOT } from './root.ts';

const PLAYWRIGHT = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
export const RULES_DOC = path.join('docs', 'rules.md');
const USAGE = `Usage: npm run rules -- [flags]

  (no flag)   every rule with its level and the tests that state it, on the terminal
  --write     writes ${RULES_DOC} instead
  --check     writes nothing; exits 1 when ${RULES_DOC} is not current
  --help, -h  this text

Nothing runs against a target: the tests are only listed (playwright test --list).`;

/** The contract suite's tests as `--list` sees them (every test, slow ones included), with their declarations. */
export function listedTests(): TestRecord[] {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !/^(LP_|PLAYWRIGHT_)/.test(name)) env[name] = value;
  const run = spawnSync(process.execPath, [PLAYWRIGHT, 'test', '--list', '--reporter=json', '--project=contract', '--project=contract-serial'], {
    cwd: ROOT,
    env: { ...env, LP_TARGET: 'mock' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`playwright test --list failed (exit ${run.status}): ${(run.stderr || run.stdout).slice(0, 500)}`);
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as JSONReport;
  const records = new Map<string, TestRecord>();
  const walk = (suites: readonly JSONReportSuite[] | undefined, titles: string[]): void => {
    for (const suite of suites ?? []) {
      const inner = suite.file === suite.title ? [path.basename(suite.file)] : [...titles, suite.title];
      for (const spec of suite.specs) {
        const annotations = spec.tests.flatMap((t) => t.annotations);
        const of = (type: string) => [...new Set(annotations.filter((a) => a.type === type).map((a) => a.description ?? ''))];
        const title = [...inner, spec.title].join(' › ');
        records.set(title, { title, declared: of('rule'), needs: of('needs'), checked: [], status: 'listed', deviations: [], failures: [] });
      }
      walk(suite.suites, inner);
    }
  };
  walk(report.suites, []);
  return [...records.values()];
}

/** docs/rules.md, for `npm run docs` (which formats it as `npm run lint` checks it). */
export function rulesDocs(): GeneratedFile[] {
  return [{ path: RULES_DOC, content: renderRulesMarkdown(coverage(listedTests(), RESPONSE_RULES)), format: 'markdown' }];
}

async function formatted(file: GeneratedFile): Promise<string> {
  const filepath = path.join(ROOT, file.path);
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(file.content, { ...options, filepath });
}

function renderList(items: readonly RuleCoverage[]): string {
  return items
    .map((item) => {
      const rule = RULES[item.id];
      const tests =
        item.tests.length === 0
          ? item.everyResponse
            ? `    judged on ${item.everyResponse}`
            : '    NO TEST states this rule'
          : item.tests.map((t) => `    - ${t}`).join('\n');
      return `${item.id} [${rule.level}]: ${rule.statement}\n${tests}`;
    })
    .join('\n');
}

async function main(): Promise<number> {
  const { values } = parseCommandLine('rules', USAGE, {
    args: process.argv.slice(2),
    options: { write: { type: 'boolean', default: false }, check: { type: 'boolean', default: false } },
    strict: true,
  });
  if (values.write || values.check) {
    const [file] = rulesDocs();
    const doc = { path: (file as GeneratedFile).path, content: await formatted(file as GeneratedFile) };
    let current: string | undefined;
    try {
      current = readFileSync(path.join(ROOT, doc.path), 'utf8');
    } catch {
      current = undefined;
    }
    if (values.check) {
      console.log(current === doc.content ? `rules: ${doc.path} is current` : `rules: ${doc.path} is not current (run \`npm run rules -- --write\`)`);
      return current === doc.content ? 0 : 1;
    }
    writeFileSync(path.join(ROOT, doc.path), doc.content);
    console.log(`rules: wrote ${doc.path}`);
    return 0;
  }
  const items = coverage(listedTests(), RESPONSE_RULES);
  console.log(renderList(items));
  const untested = items.filter((i) => i.state === 'no test').map((i) => i.id);
  console.log(`\n${items.length} rules; ${untested.length} without a test${untested.length > 0 ? `: ${untested.join(', ')}` : ''}`);
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`rules: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
