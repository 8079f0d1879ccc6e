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
    files: ['contracts/**/*.ts', 'schemas/**/*.ts', 'mock/**/*.ts', 'harness/**/*.ts', 'specs/**/*.ts', 'load/**/*.ts', 'playwright.config.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [notTools] }] },
  },
  {
    // contracts/ and schemas/ are the ground floor: the mock, the suite, the load scripts and the
    // scripts build on them, never the other way round (their tests may use the scripts' helpers).
    files: ['contracts/**/*.ts', 'schemas/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^\\.\\./(mock|harness|specs|load|tools)(/|$)', message: 'contracts/ and schemas/ import nothing from the floors above them.' }],
        },
      ],
    },
  },
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
