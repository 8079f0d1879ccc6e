/** `npm run openapi [-- --out <file>]`: writes schemas/openapi.ts's OpenAPI 3.1 document (default dist/openapi.json), checked by swagger-parser first. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs as parseFlags } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument } from '../schemas/openapi.ts';
import { answerHelp, helpPointer, runMain } from '../common/flags.ts';
import { ROOT } from '../common/root.ts';

const USAGE = 'usage: npm run openapi [-- --out <file>]';
/** What `--help` prints; USAGE is the one line an error ends with. */
const HELP = `Usage: npm run openapi -- [flags]

  --out <file>  where the OpenAPI 3.1 document goes (default dist/openapi.json); its path is printed
  --help, -h    this text

The document is built from contracts/ and checked with swagger-parser first: exits 1 when it is not valid.`;

function parseArgs(args: readonly string[]): { out: string } | { error: string } {
  answerHelp(args, HELP);
  let values: { out?: string | undefined };
  try {
    ({ values } = parseFlags({ args: [...args], options: { out: { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return { error: `--out needs a file path. ${USAGE}` };
    const arg = /'([^']+)'/.exec((error as Error).message)?.[1] ?? '?';
    return { error: `unknown argument "${arg}". ${USAGE}${helpPointer('openapi')}` };
  }
  if (values.out === '') return { error: `--out needs a file path. ${USAGE}` };
  return { out: values.out === undefined ? path.join(ROOT, 'dist', 'openapi.json') : path.resolve(values.out) };
}

async function main(args: readonly string[]): Promise<number> {
  const parsed = parseArgs(args);
  if ('error' in parsed) {
    console.error(`openapi: ${parsed.error}`);
    return 2;
  }
  const document = buildOpenApiDocument();
  try {
    // validate() dereferences in place: give it a copy.
    await SwaggerParser.validate(structuredClone(document) as never);
  } catch (error) {
    console.error(`openapi: the generated document is not valid OpenAPI 3.1: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  mkdirSync(path.dirname(parsed.out), { recursive: true });
  writeFileSync(parsed.out, `${JSON.stringify(document, null, 2)}\n`);
  console.log(parsed.out);
  return 0;
}

runMain(() => main(process.argv.slice(2)), 'openapi: ');
