/**
 * Prints the run's bound (bound.ts) once the runner knows its tests: right after the list reporter's
 * `Running N tests` line, before the first result. Nothing for a run without a contract test.
 */
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';
import { readConfig } from '../target/config.ts';
import { boundLine } from './bound.ts';

export default class BoundReporter implements Reporter {
  onBegin(_config: FullConfig, suite: Suite): void {
    const tests = suite.allTests().filter((test) => test.parent.project()?.name.startsWith('contract'));
    if (tests.length === 0) return;
    const tagged = (tag: string) => tests.filter((test) => test.tags.includes(tag)).length;
    console.log(boundLine(readConfig(), { quota: tagged('@quota'), slow: tagged('@slow') }));
  }

  printsToStdio(): boolean {
    return false;
  }
}
