/**
 * The suite's own safety: no configured secret and no issued token appears in any report, trace, attachment or log. A child run of the embedded mock with the
 * project's reporters (a few specs that handle credentials, and a canary that fails on purpose) writes into a temporary directory; every file there (zips and
 * the HTML report's embedded data opened) and the run's log are searched for each secret and each token issued. Tokens reach this process only as fingerprints.
 */
import { expect, TAGS, test } from '../fixtures/index.ts';
import { CHILD_TEST_TIMEOUT_MS } from '../../harness/self-check/child-run.ts';
import { leakRun } from '../../harness/self-check/leak-run.ts';
import { REDACTED, Redactor } from '../../harness/client/redact.ts';

test.describe('the secret-leak gate', { tag: TAGS.self }, () => {
  test('finds no configured secret and no issued token in any report, result file, attachment or log of a run', async () => {
    test.setTimeout(CHILD_TEST_TIMEOUT_MS);
    const run = await leakRun();
    expect(run.summary, `the child run: only the canary fails\n${run.log.slice(-2000)}`).toMatchObject({ failed: 1 });
    expect(run.summary?.passed, 'tests of the child run that passed').toBeGreaterThan(10);
    expect(run.tokens, 'tokens the child run issued').toBeGreaterThan(10);
    expect(run.leaks, 'secrets and tokens found in the run’s output').toEqual([]);
    // The gate looked where it says: the canary's marker turns up in each kind of output.
    for (const place of [
      /^\(log\)$/,
      /^reports\/html\/index\.html!embedded\.zip!/,
      /^reports\/html\/data\//,
      /^reports\/junit\.xml$/,
      /^reports\/test-results\/.*error-context\.md$/,
    ]) {
      const marked = run.markedIn.some((where) => place.test(where));
      expect(marked, `the marker in ${place.source} (found in: ${run.markedIn.join(', ')})`).toBe(true);
    }
  });
  test('reads traces too: with traces on, it finds the canary’s marker in them, and no secret (the suite’s requests are not Playwright’s: no trace records them)', async () => {
    test.setTimeout(CHILD_TEST_TIMEOUT_MS);
    const run = await leakRun(['--trace', 'on', 'specs/token.spec.ts', 'specs/self/safety/leak-canary.spec.ts']);
    expect(run.summary, `the child run: only the canary fails\n${run.log.slice(-2000)}`).toMatchObject({ failed: 1 });
    const inTraces = run.markedIn.filter((where) => /trace\.zip!/.test(where));
    expect(inTraces, 'the marker in a trace').not.toEqual([]);
    expect(run.leaks, 'secrets and tokens found in the run’s output').toEqual([]);
  });
});

test.describe('the redaction helper', { tag: TAGS.self }, () => {
  const redactor = new Redactor();
  redactor.add('s3cr3t-value-123', 'tok_abcdefghijklmnop');
  for (const { title, text, hidden } of [
    { title: 'an Authorization header', text: 'authorization: Bearer eyJhbGciOi.abc-def_ghi', hidden: 'eyJhbGciOi.abc-def_ghi' },
    { title: 'a bearer token in prose', text: 'sent Bearer abcdef0123456789 to the API', hidden: 'abcdef0123456789' },
    { title: 'form fields', text: 'grant_type=client_credentials&client_secret=hunter2hunter2&scope=x', hidden: 'hunter2hunter2' },
    { title: 'token members of JSON', text: '{"access_token":"aaaaaaaaaaaa","refresh_token":"bbbbbbbbbbbb"}', hidden: 'aaaaaaaaaaaa' },
    { title: 'a registered secret anywhere', text: 'the secret is s3cr3t-value-123.', hidden: 's3cr3t-value-123' },
    { title: 'a registered token inside a URL', text: 'GET /x?token=tok_abcdefghijklmnop', hidden: 'tok_abcdefghijklmnop' },
  ])
    test(`hides ${title}`, () => {
      const out = redactor.redact(text);
      expect(out).not.toContain(hidden);
      expect(out).toContain(REDACTED);
    });
});
