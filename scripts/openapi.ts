/**
 * `npm run openapi [-- --out <file>]`: writes the OpenAPI 3.1 document built by contracts/openapi.ts
 * (default dist/openapi.json), after checking it with swagger-parser, and prints the file's path.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument } from '../contracts/openapi.ts';
import { ROOT } from './root.ts';

const USAGE = 'usage: npm run openapi [-- --out <file>]';

function parseArgs(args: readonly string[]): { out: string } | { error: string } {
  let out = path.join(ROOT, 'dist', 'openapi.json');
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--out' || arg.startsWith('--out=')) {
      const value = arg === '--out' ? args[++i] : arg.slice('--out='.length);
      if (!value) return { error: `--out needs a file path. ${USAGE}` };
      out = path.resolve(value);
    } else {
      return { error: `unknown argument "${arg}". ${USAGE}` };
    }
  }
  return { out };
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`openapi: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
