/**
 * Prints the plain closing line CI reads (`N passed, N failed[, N skipped]`) and writes the counts to
 * reports/summary/<run>.json, so scripts/test-all.ts can add up several Playwright runs into one line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter, TestCase } from '@playwright/test/reporter';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
}

export function formatCounts(c: Counts): string {
  return `${c.passed} passed, ${c.failed} failed${c.skipped > 0 ? `, ${c.skipped} skipped` : ''}`;
}

export default class SummaryReporter implements Reporter {
  readonly #tests = new Set<TestCase>();

  onTestEnd(test: TestCase): void {
    this.#tests.add(test);
  }

  onEnd(result: FullResult): void {
    const counts: Counts = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
    for (const test of this.#tests) {
      const outcome = test.outcome();
      if (outcome === 'expected') counts.passed++;
      else if (outcome === 'flaky') {
        counts.passed++;
        counts.flaky++;
      } else if (outcome === 'skipped') counts.skipped++;
      else counts.failed++;
    }
    // A run that broke before or around its tests (config error, global setup, timeout) must not read as green.
    if (result.status !== 'passed' && counts.failed === 0) counts.failed = 1;
    const name = process.env.LP_SUMMARY_NAME ?? 'last';
    const dir = path.join('reports', 'summary');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify({ ...counts, status: result.status })}\n`);
    console.log(formatCounts(counts));
  }

  printsToStdio(): boolean {
    return true;
  }
}
