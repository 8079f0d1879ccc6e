import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { build, type Metafile } from 'esbuild';
import { buildLoad, checkMetafile, esbuildOptions, FORBIDDEN_GLOBALS, type LoadBuild, loadEntries, scanBundle } from './build.ts';
import { ROOT } from '../../common/root.ts';

const root = ROOT;
let outdir: string;
let built: LoadBuild;

// One build for the whole file, into a directory of its own (dist/load is left to npm run build:load).
test.beforeAll(async () => {
  outdir = mkdtempSync(path.join(tmpdir(), 'lp-build-load-'));
  built = await buildLoad({ root, outdir });
});

test.afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

test.describe('the k6 bundles', () => {
  test('every entry script builds into <name>.js with a source map, plus meta.json and the generated validators', () => {
    expect(loadEntries(root)).toEqual(['pagination', 'rate-limit', 'smoke', 'token-lifecycle']);
    expect(built.bundles.map((b) => b.name)).toEqual(loadEntries(root));
    for (const bundle of built.bundles) {
      const code = readFileSync(bundle.file, 'utf8');
      // CommonJS (k6 v0.47 would hand an ES module to Babel): k6's modules by require, the entry points by module.exports.
      expect(code).toMatch(/require\("k6(\/[a-z]+)?"\)/);
      expect(code).toMatch(/^module\.exports = __toCommonJS\(/m);
      expect(code).not.toMatch(/^(import|export) /m);
      expect(code).toContain(`//# sourceMappingURL=${bundle.name}.js.map`);
      expect(JSON.parse(readFileSync(`${bundle.file}.map`, 'utf8')).sources.some((s: string) => s.endsWith(`load/${bundle.name}.ts`))).toBe(true);
    }
    expect(JSON.parse(readFileSync(path.join(outdir, 'meta.json'), 'utf8'))).toEqual(built.metafile);
  });

  test('the metafile shows each bundle importing k6 modules only, and no ajv-formats inside', () => {
    expect(checkMetafile(built.metafile)).toEqual([]);
    for (const [output, info] of Object.entries(built.metafile.outputs)) {
      if (output.endsWith('.map')) continue;
      expect(info.imports.length).toBeGreaterThan(0);
      for (const imported of info.imports) expect(imported).toMatchObject({ external: true, path: expect.stringMatching(/^k6(\/(http|metrics|execution))?$/) });
      expect(Object.keys(info.inputs).some((input) => input.includes('ajv-formats'))).toBe(false);
      // The schema checks run on bundled standalone code: no Ajv compiler inside.
      expect(Object.keys(info.inputs).some((input) => /node_modules\/ajv\/dist\/(core|ajv|2020|compile)/.test(input))).toBe(false);
    }
  });

  test('the metafile check refuses other imports and ajv-formats', () => {
    const metafile = {
      inputs: {},
      outputs: {
        'dist/load/x.js': {
          bytes: 1,
          inputs: { 'node_modules/ajv-formats/dist/formats.js': { bytesInOutput: 1 } },
          imports: [
            { path: 'k6/http', kind: 'import-statement', external: true },
            { path: 'node:fs', kind: 'import-statement', external: true },
            { path: 'https://jslib.k6.io/k6-summary/0.0.2/index.js', kind: 'import-statement', external: true },
          ],
          exports: [],
        },
      },
    } as unknown as Metafile;
    const problems = checkMetafile(metafile);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/imports node:fs/);
    expect(problems.join('\n')).toMatch(/ajv-formats holds a \\u\{...\} regex/);
  });

  test('no bundle uses a global or a regex k6 v0.47 lacks', () => {
    for (const bundle of built.bundles) expect(scanBundle(readFileSync(bundle.file, 'utf8'), bundle.name)).toEqual([]);
  });

  test('the generated validators use no u-flag regex and compile no schema at run time', () => {
    const code = readFileSync(built.validatorsFile, 'utf8');
    for (const name of [
      'validateContentList',
      'validateUsersList',
      'validateTokenResponse',
      'validateErrorBody',
      'validateListEnvelope',
      'validateResourceObject',
      'validateContentAttributes',
    ]) {
      expect(code).toContain(`export const ${name} =`);
    }
    expect(code).not.toMatch(/new RegExp\([^)]*, "[^"]*u/);
    expect(code).not.toContain('ajv-formats');
  });
});

test.describe('the scan for what k6 v0.47 lacks', () => {
  test('catches a planted `new URL(` in a fixture bundled with the same options', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lp-planted-'));
    try {
      mkdirSync(path.join(dir, 'load'));
      writeFileSync(path.join(dir, 'package.json'), '{}');
      writeFileSync(path.join(dir, 'load', 'tsconfig.json'), '{}');
      writeFileSync(
        path.join(dir, 'load', 'planted.ts'),
        [
          "import http from 'k6/http';",
          '// A comment about URL, fetch( and process.env is not a use.',
          "const note = 'URLSearchParams and setTimeout in a string are not uses either';",
          'export default function () {',
          "  const target = new URL('https://example.com/api');",
          '  http.get(target.href + note);',
          '}',
        ].join('\n'),
      );
      const result = await build({ ...esbuildOptions(dir, ['planted'], path.join(dir, 'out'), 'export {}'), write: false });
      const code = result.outputFiles.find((f) => f.path.endsWith('planted.js'))?.text ?? '';
      const findings = scanBundle(code, 'planted.js');
      expect(findings).toHaveLength(1);
      expect(findings[0]).toMatchObject({ what: 'URL', snippet: 'const target = new URL("https://example.com/api");' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const cases: Array<{ code: string; found: string[] }> = [
    { code: 'const u = new URLSearchParams("a=1");', found: ['URLSearchParams'] },
    { code: 'const b = Buffer.from("x");', found: ['Buffer'] },
    { code: 'if (process.env.X) {}', found: ['process'] },
    { code: 'fetch("https://x");', found: ['fetch'] },
    { code: 'setTimeout(() => {}, 1);', found: ['setTimeout'] },
    { code: 'new TextEncoder().encode("x");', found: ['TextEncoder'] },
    { code: 'const c = structuredClone({});', found: ['structuredClone'] },
    { code: 'crypto.randomUUID();', found: ['crypto'] },
    { code: 'globalThis.fetch("x");', found: ['globalThis.fetch'] },
    { code: 'const r = /caf\\u{e9}/u;', found: ['regex flag u', 'regex \\u{...} escape'] },
    { code: 'const r = /(?<year>\\d{4})/;', found: ['named capture group'] },
    { code: 'const r = new RegExp("^a", "u");', found: ['regex flag u'] },
    { code: 'const r = RegExp("(?<n>x)");', found: ['named capture group'] },
    { code: 'const m = require("./lib");', found: ['require'] },
    { code: 'const m = require(name);', found: ['require'] },
    // Not uses: property names, comments, strings, lookbehind, an escaped parenthesis, k6's own require.
    { code: 'const k6 = require("k6"); const http = require("k6/http");', found: [] },
    { code: 'const o = { URL: 1, fetch() {} }; o.URL; o.fetch(); /* new URL( */ const s = "process.env";', found: [] },
    { code: 'const r = /(?<=a)b(?<!c)/; const e = /\\(?<x/;', found: [] },
  ];
  for (const { code, found } of cases) {
    test(`${code} → ${found.length ? found.join(', ') : 'nothing'}`, () => {
      expect(scanBundle(code).map((f) => f.what)).toEqual(found);
    });
  }

  test('every global k6 v0.47 lacks is on the list', () => {
    for (const name of ['URL', 'URLSearchParams', 'Buffer', 'process', 'fetch', 'setTimeout', 'TextEncoder', 'structuredClone', 'crypto']) {
      expect(FORBIDDEN_GLOBALS).toContain(name);
    }
  });
});
