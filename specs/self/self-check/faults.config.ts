/**
 * The child run of specs/self/self-check.spec.ts: one project per fault of cases.ts, each with its own embedded mock started with that fault (the
 * `mockSettings` worker option) and only the test that states the broken rule; and a project without faults running the same tests, which must pass. The JSON
 * report goes to the working directory (a temporary one).
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import type { MockTargetSettings } from '../../../harness/run/config.ts';
import { FAULT_CASES, titlePattern } from './cases.ts';

const specs = path.join(__dirname, '..', '..');
const file = (spec: string) => new RegExp(`specs[\\\\/]${spec.replace(/\./g, '\\.')}$`);
const sound: MockTargetSettings = { kind: 'mock', faults: [] };

export default defineConfig<object, { mockSettings: MockTargetSettings }>({
  reporter: [['json', { outputFile: path.resolve('self-check.json') }]],
  outputDir: path.resolve('test-results'),
  workers: 2,
  projects: [
    ...FAULT_CASES.map((c) => ({
      name: c.fault,
      testDir: specs,
      testMatch: file(c.spec),
      grep: titlePattern(c),
      use: { mockSettings: { ...sound, faults: [c.fault] } },
    })),
    { name: 'no-fault', testDir: specs, testMatch: FAULT_CASES.map((c) => file(c.spec)), grep: FAULT_CASES.map(titlePattern), use: { mockSettings: sound } },
  ],
});
