/**
 * `npm run docs`: writes every generated document from the code it describes; `npm run docs -- --check` writes nothing and exits 1 naming each document that is
 * not current (CI runs it). Tests and CI steps never write a tracked file: this is the one command that does.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { configurationMarkdown, envExample } from './configuration.ts';
import { faultMatrixMarkdown } from './fault-matrix.ts';
import { profilesMarkdown } from './profiles.ts';
import { parseCommandLine, runMain } from '../../common/flags.ts';
import { coverage } from '../../harness/report/coverage.ts';
import { renderRulesMarkdown } from '../../harness/report/render.ts';
import { listedTests } from '../../harness/report/rules-cli.ts';
import { ROOT } from '../../common/root.ts';

/** Every generated document by its path from the root; docs/rules.md is the list `npm run rules` prints. */
const DOCUMENTS: Readonly<Record<string, () => string>> = {
  'docs/configuration.md': configurationMarkdown,
  '.env.example': envExample,
  'docs/profiles.md': profilesMarkdown,
  'docs/fault-matrix.md': faultMatrixMarkdown,
  'docs/rules.md': () => renderRulesMarkdown(coverage(listedTests())),
};
const USAGE = `Usage: npm run docs -- [flags]

  (no flag)   writes every generated document that is not current, from the code it describes
  --check     writes nothing; exits 1 naming each document that is not current (CI runs it)
  --help, -h  this text`;

/** A Markdown document as `npm run lint` (Prettier, with the project's own settings) would leave it; other files as written. */
async function formatted(file: string, content: string): Promise<string> {
  if (!file.endsWith('.md')) return content;
  const filepath = path.join(ROOT, file);
  return prettier.format(content, { ...(await prettier.resolveConfig(filepath)), filepath });
}

async function main(): Promise<number> {
  const { values } = parseCommandLine('docs', USAGE, { args: process.argv.slice(2), options: { check: { type: 'boolean', default: false } }, strict: true });
  const stale: string[] = [];
  for (const [file, generate] of Object.entries(DOCUMENTS)) {
    const content = await formatted(file, generate());
    const target = path.join(ROOT, file);
    if (existsSync(target) && readFileSync(target, 'utf8') === content) continue;
    stale.push(file);
    if (!values.check) writeFileSync(target, content);
  }
  if (!values.check) console.log(stale.length === 0 ? 'docs: nothing to write' : `docs: wrote ${stale.join(', ')}`);
  else
    console.log(stale.length === 0 ? 'docs: every generated document is current' : `docs: not current (run \`npm run docs\` and commit): ${stale.join(', ')}`);
  return values.check && stale.length > 0 ? 1 : 0;
}

runMain(main, 'docs: ', 2);
