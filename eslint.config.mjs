// Lint: ESLint's and typescript-eslint's recommended rules, plus the house habits STYLE.md names
// (type-only imports, no unused code). Pure JavaScript tooling on purpose: linters shipped as
// per-platform binaries cannot be installed from a lock file written on one platform by `npm ci`
// on every other one.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The product (the suite, its harness, the mock, the load scripts, the contracts) never imports the
// project's own tooling: tools/ may be deleted from an installed copy without breaking a command.
const notTools = { regex: '^(\\./|(\\.\\./)+)tools(/|$)', message: "The product imports nothing from tools/ (the project's own tooling)." };

export default defineConfig(
  { ignores: ['node_modules/', 'dist/', 'reports/', 'test-results/', 'playwright-report/', 'blob-report/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: [
      'util/**/*.ts',
      'contracts/**/*.ts',
      'schemas/**/*.ts',
      'common/**/*.ts',
      'mock/**/*.ts',
      'harness/**/*.ts',
      'specs/**/*.ts',
      'load/**/*.ts',
      'playwright.config.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [notTools] }] },
  },
  // The floors, each importing only from those below it: util/ (what knows nothing of the API), contracts/ and
  // schemas/ (the API as code), common/ (the settings, the renderers and the command lines every program shares),
  // then the mock and the harness side by side, and the specs, load scripts and tools on top. Tests may reach higher.
  ...[
    { floor: 'util', above: 'contracts|schemas|common|mock|harness|specs|load|tools' },
    { floor: 'contracts', above: 'common|mock|harness|specs|load|tools' },
    { floor: 'schemas', above: 'common|mock|harness|specs|load|tools' },
    { floor: 'common', above: 'mock|harness|specs|load|tools' },
    { floor: 'mock', above: 'harness|specs|load|tools' },
  ].map(({ floor, above }) => ({
    files: [`${floor}/**/*.ts`],
    ignores: ['**/*.test.ts', 'mock/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: `^(\\.\\./)+(${above})(/|$)`, message: `${floor}/ imports nothing from the floors above it (${above.replaceAll('|', ', ')}).` }],
        },
      ],
    },
  })),
  {
    // The harness is a library: the specs, the scripts and the profile prober import it, never the
    // other way round, so no test folder is reached into to drive a target.
    files: ['harness/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [notTools, { regex: '^(\\.\\./)+specs(/|$)', message: 'harness/ imports nothing from specs/.' }] }],
    },
  },
  {
    // The mock's core knows nothing of faults: the fault layer (mock/faults/) wraps it through the
    // seams of mock/seams.ts, never the other way round. Tests of the core may not reach for it either.
    files: ['mock/**/*.ts'],
    ignores: ['mock/faults/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            notTools,
            { regex: '^(\\.\\./)+(harness|specs|load)(/|$)', message: 'mock/ imports nothing from the floors above it (harness, specs, load).' },
            { regex: '(^|/)faults(/|$)', message: 'The mock core must not import the fault layer (mock/faults/); faults use the seams of mock/seams.ts.' },
          ],
        },
      ],
    },
  },
  {
    // The k6 side runs in k6's runtime: no Node globals (docs/load.md, "The k6 runtime"). Its Node tests are Node code.
    files: ['load/**/*.ts'],
    ignores: ['load/**/*.test.ts', 'load/cli/**'],
    languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', console: 'readonly' } },
  },
);
