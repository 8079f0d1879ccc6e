/**
 * `npm run docs`: writes every generated document from the code it describes; `npm run docs -- --check`
 * writes nothing and exits 1 naming each document that is not current (CI runs it). Tests and CI steps
 * never write a tracked file: this is the one command that does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { configurationDocs } from './configuration.ts';
import { faultMatrixDocs } from './fault-matrix.ts';
import type { GeneratedFile } from './generated.ts';
import { profileDocs } from './profiles.ts';
import { parseCommandLine } from '../../harness/flags.ts';
import { rulesDocs } from './rules.ts';
import { ROOT } from '../../harness/root.ts';

const GENERATORS: ReadonlyArray<() => GeneratedFile[]> = [configurationDocs, profileDocs, faultMatrixDocs, rulesDocs];
const USAGE = `Usage: npm run docs -- [flags]

  (no flag)   writes every generated document that is not current, from the code it describes
  --check     writes nothing; exits 1 naming each document that is not current (CI runs it)
  --help, -h  this text`;

/** The file as `npm run lint` (Prettier, with the project's own settings) would leave it. */
async function formatted(file: GeneratedFile): Promise<string> {
  if (file.format === 'none') return file.content;
  const filepath = path.join(ROOT, file.path);
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(file.content, { ...options, filepath });
}

function current(file: string): string | undefined {
  try {
    return readFileSync(path.join(ROOT, file), 'utf8');
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const { values } = parseCommandLine('docs', USAGE, { args: process.argv.slice(2), options: { check: { type: 'boolean', default: false } }, strict: true });
  const stale: string[] = [];
  for (const file of GENERATORS.flatMap((generate) => generate())) {
    const content = await formatted(file);
    if (current(file.path) === content) continue;
    stale.push(file.path);
    if (!values.check) writeFileSync(path.join(ROOT, file.path), content);
  }
  if (values.check) {
    if (stale.length === 0) console.log('docs: every generated document is current');
    else console.log(`docs: not current (run \`npm run docs\` and commit): ${stale.join(', ')}`);
    return stale.length === 0 ? 0 : 1;
  }
  console.log(stale.length === 0 ? 'docs: nothing to write' : `docs: wrote ${stale.join(', ')}`);
  return 0;
}

main().then(process.exit, (error: unknown) => {
  console.error(`docs: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
});
