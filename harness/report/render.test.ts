/**
 * What a run's pages say of a broken rule and of a deviation: the page beside the HTML report
 * (rules.html) and the terminal's rule lines show why a rule broke (its first failure message,
 * escaped), list the deviations on their own, and name the target.
 */
import { expect, test } from '@playwright/test';
import { readConfig } from '../run/config.ts';
import { describeTarget } from './target-description.ts';
import { coverage, deviationsOf, sentenceOf, type TestRecord } from './coverage.ts';
import { renderRunHtml, renderRunText } from './render.ts';

/** A failure as Playwright reports a soft `expect` of harness/verdict/verdict.ts: colours, the matcher's block after the sentence. */
const FAILURE =
  '\u001b[31mError: token.response (contract): expected access_token, token_type bearer, expires_in (integer seconds) and refresh_token, got:\n' +
  '/expires_in must be integer (got "5183999") <b>not bold</b> (POST http://127.0.0.1:4010/oauth/token)\u001b[39m\n\n' +
  'expect(received).toBe(expected) // Object.is equality\n\nExpected: true\nReceived: false';

const RECORDS: TestRecord[] = [
  {
    title: 'token.spec.ts › a valid token request › gives a token',
    declared: ['token.response'],
    needs: [],
    checked: ['token.response', 'platform.token-type-case'],
    status: 'failed',
    deviations: ['platform.token-type-case: expected token_type "bearer", got "Bearer" (POST http://127.0.0.1:4010/oauth/token)'],
    failures: [FAILURE],
  },
  {
    title: 'token.spec.ts › a token request gets no token for › a wrong client secret',
    declared: ['token.credentials'],
    needs: [],
    checked: ['token.credentials', 'platform.token-refusal-status'],
    status: 'passed',
    deviations: ['platform.token-refusal-status: expected 403, got 401 (POST http://127.0.0.1:4010/oauth/token)'],
    failures: [],
  },
];

const SENTENCE =
  'token.response (contract): expected access_token, token_type bearer, expires_in (integer seconds) and refresh_token, got:\n' +
  '/expires_in must be integer (got "5183999") <b>not bold</b> (POST http://127.0.0.1:4010/oauth/token)';

test.describe('a run’s rules page and rule lines', () => {
  const items = coverage(RECORDS);
  const target = describeTarget(readConfig({ LP_MOCK_PROFILE: 'lenient' }));
  const html = renderRunHtml(items, { title: 'Rules', target, deviations: deviationsOf(RECORDS) });

  test('a broken rule carries its first failure message: the rule’s sentence, without colours or the matcher’s block', () => {
    const broken = items.find((i) => i.id === 'token.response');
    expect(broken?.state).toBe('broken');
    expect(broken?.firstFailure).toBe(SENTENCE);
    expect(items.find((i) => i.id === 'token.credentials')?.firstFailure).toBeUndefined();
  });

  test('a failing test breaks the rule its failure names, and of the others it declares those it never judged', () => {
    const [failing] = RECORDS as [TestRecord];
    const declared: TestRecord['declared'] = ['token.response', 'token.issued', 'token.credentials'];
    const rules = coverage([{ ...failing, declared, checked: [...failing.checked, 'token.issued'] }]);
    expect(rules.find((i) => i.id === 'token.response')?.state).toBe('broken');
    expect(rules.find((i) => i.id === 'token.issued')?.state).toBe('held');
    expect(rules.find((i) => i.id === 'token.credentials')?.state).toBe('broken');
  });

  test('rules.html shows why a rule broke, escaped', () => {
    expect(html).toContain('/expires_in must be integer (got &quot;5183999&quot;) &lt;b&gt;not bold&lt;/b&gt;');
    expect(html).not.toContain('<b>not bold</b>');
  });

  test('rules.html lists each platform deviation with its rule, what deviated and the test', () => {
    const section = html.slice(html.indexOf('<h2 id="deviations">Platform deviations</h2>'));
    expect(section).toContain('<code>platform.token-refusal-status</code></td><td>expected 403, got 401 (POST http://127.0.0.1:4010/oauth/token)</td>');
    expect(section).toContain('token.spec.ts › a token request gets no token for › a wrong client secret');
    expect(section).toContain('<code>platform.token-type-case</code></td><td>expected token_type &quot;bearer&quot;, got &quot;Bearer&quot;');
  });

  test('rules.html says so when nothing deviated', () => {
    expect(renderRunHtml(items, { title: 'Rules', deviations: [] })).toContain('<h2 id="deviations">Platform deviations</h2><p>None.</p>');
  });

  test('rules.html names the target', () => {
    expect(html).toContain(`<h2>Target</h2><p>${target}</p>`);
    expect(target).toContain('profile lenient');
  });

  test('the terminal’s line of a broken rule says why on the same line, cut with an ellipsis', () => {
    const line = renderRunText(items)
      .split('\n')
      .find((l) => l.includes('FAIL token.response (contract): '));
    expect(line).toContain('(expected access_token, token_type bearer, expires_in (integer seconds) and refresh_token, got: /expires_in must be integer');
    expect(line?.endsWith('…)')).toBe(true);
    expect(sentenceOf(`Error: ${'y'.repeat(3000)}`).length).toBeLessThanOrEqual(2000);
  });
});
