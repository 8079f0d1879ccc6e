/**
 * The child run of the secret-leak gate (specs/self/safety.spec.ts): the project's own configuration (reporters, contract project settings: what a real run
 * writes), narrowed to a few specs that handle credentials plus a canary that fails on purpose, so that failure output, attachments and logs are written too.
 * Run from a temporary working directory, so all of it lands there.
 */
import { defineConfig, type Project } from '@playwright/test';
import base from '../../../playwright.config.ts';

const contract = base.projects?.find((p: Project) => p.name === 'contract');
if (!contract) throw new Error('playwright.config.ts has no project "contract" to base the leak run on.');

export default defineConfig({
  ...base,
  projects: [
    {
      ...contract,
      testMatch: [/specs[\\/](token|logout|bearer-auth)\.spec\.ts$/, /specs[\\/]self[\\/]safety[\\/]leak-canary\.spec\.ts$/],
      grepInvert: undefined,
      // The run has no serial or real-time project to hand over to.
      dependencies: undefined,
    },
  ],
});
