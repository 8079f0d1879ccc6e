/**
 * What a run's reports say of it: a child run of the project's own configuration (three tests of one spec file: cheap, against an embedded mock with a profile
 * and a fault, so that the run has a broken rule and deviations) in a temporary directory; every report it writes must name the target, rules.html must say why
 * the rule broke and list the deviations, and the run must end by saying where its reports are.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { escapeXml } from '../../common/report.ts';
import { describeTarget } from '../../harness/report/target-description.ts';
import { CHILD_TEST_TIMEOUT_MS, runPlaywright } from '../../harness/self-check/child-run.ts';
import { readConfig } from '../../harness/run/config.ts';
import { scanTree } from '../../harness/self-check/leak-scan.ts';
import { expect, TAGS, test } from '../fixtures/index.ts';

/** The lenient profile deviates from the platform's choices; the fault breaks token.response. */
const CHILD_ENV = { LP_TARGET: 'mock', LP_MOCK_PROFILE: 'lenient', LP_MOCK_FAULTS: 'token-expires-in-string', LP_SUMMARY_NAME: 'child' };

test.describe('the reports of a run', { tag: TAGS.self }, () => {
  test('name the target, say why a rule broke, list the deviations and say where they are', async () => {
    test.setTimeout(CHILD_TEST_TIMEOUT_MS);
    const target = describeTarget(readConfig(CHILD_ENV));
    const work = mkdtempSync(path.join(tmpdir(), 'lp-reports-'));
    try {
      const run = await runPlaywright({
        config: 'playwright.config.ts',
        cwd: work,
        env: CHILD_ENV,
        args: ['specs/token.spec.ts', '--grep', 'a valid token request', '--project=contract', '--no-deps', '--workers=1'],
      });
      const tail = run.log.trimEnd().split('\n').slice(-3);
      expect(tail, `the last lines of the child run\n${run.log.slice(-2000)}`).toEqual([
        `Target: ${target}`,
        'Reports: reports/html/index.html, reports/html/rules.html, reports/junit.xml, reports/summary/child.json',
        expect.stringMatching(/^\d+ passed, [1-9]\d* failed, \d+ platform deviations$/),
      ]);
      const named = scanTree(work, [{ label: 'target', value: target }]).map((f) => f.where.replaceAll('\\', '/'));
      for (const place of [
        /^reports\/html\/index\.html!embedded\.zip!report\.json$/,
        /^reports\/html\/rules\.html$/,
        /^reports\/junit\.xml$/,
        /^reports\/summary\/child\.json$/,
      ]) {
        const found = named.some((where) => place.test(where));
        expect(found, `the target named in ${place.source} (named in: ${named.join(', ')})`).toBe(true);
      }
      const junit = readFileSync(path.join(work, 'reports', 'junit.xml'), 'utf8');
      // Named by Playwright's junit reporter: in the <testsuites> name, and on each testcase (an annotation of the fixtures).
      expect(junit).toContain(`name="Learning Platform API contract suite against ${escapeXml(target)}"`);
      expect(junit).toContain(`<property name="lp.target" value="${escapeXml(target)}">`);
      expect(target).toContain('profile lenient');
      const summary = JSON.parse(readFileSync(path.join(work, 'reports', 'summary', 'child.json'), 'utf8')) as { target?: string };
      expect(summary.target).toBe(target);
      const rules = readFileSync(path.join(work, 'reports', 'html', 'rules.html'), 'utf8');
      expect(rules, 'why token.response broke').toMatch(
        /<td>token\.response \(contract\): [^<]*<\/td><td class="detail">expected [^<]*expires_in must be integer/,
      );
      expect(rules.slice(rules.indexOf('<h2 id="deviations">Platform deviations</h2>')), 'the deviations section').toContain(
        '<code>platform.token-type-case</code>',
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
