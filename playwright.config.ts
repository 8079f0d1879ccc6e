/**
 * One runner for every test of the project: the mock's, the schemas', the load libraries' unit tests
 * (project `unit`) and the contract suite (projects `contract*`, composed in specs/fixtures/).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['./scripts/summary-reporter.ts']],
  projects: [
    {
      name: 'unit',
      testDir: '.',
      testMatch: ['contracts/**/*.test.ts', 'schemas/**/*.test.ts', 'mock/**/*.test.ts', 'load/**/*.test.ts', 'scripts/**/*.test.ts'],
    },
  ],
});
