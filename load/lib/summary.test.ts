import { expect, test } from '@playwright/test';
import { escapeXml } from '../../common/report.ts';
import { RULES, type RuleId } from '../../contracts/rules/index.ts';
import { METRICS } from './metrics.ts';
import {
  buildReport,
  collectSecrets,
  type K6SummaryData,
  KEY_REFUSED,
  KEY_REFUSED_LINE,
  NEW_SUMMARY_SHAPE,
  parseMetricKey,
  plotSeries,
  summaryFiles,
  svgPlot,
} from './summary.ts';

const RATE_IDS: RuleId[] = ['rate.retry-after', 'rate.remaining', 'rate.429', 'platform.retry-after-reset'];
/** A rule's name in every output: its id and its statement. */
const named = (id: RuleId) => `${id}: ${RULES[id].statement}`;

const TOKEN = 'eyJhbGciOi.secret-access-token';
const SECRET = 'client<secret>&"';

/** k6's handleSummary data for a probe run that broke one rule, with a secret planted where a careless report would copy it. */
const DATA: K6SummaryData = {
  state: { testRunDurationMs: 22_500 },
  setup_data: { accessToken: TOKEN, refreshToken: 'refresh-me-please' },
  root_group: {
    name: '',
    path: '',
    groups: [],
    checks: [
      { name: 'a <b>bold</b> check', passes: 3, fails: 0 },
      { name: `leaky ${SECRET}`, passes: 1, fails: 1 },
    ],
  },
  metrics: {
    http_reqs: { type: 'counter', values: { count: 66, rate: 2.9 } },
    http_req_failed: { type: 'rate', values: { rate: 0, passes: 0, fails: 66 }, thresholds: { 'rate==0': { ok: true } } },
    [METRICS.rateFindings]: { type: 'counter', values: { count: 3, rate: 0.1 }, thresholds: { 'count==0': { ok: false } } },
    [`${METRICS.rateFindings}{rule:rate.retry-after}`]: { type: 'counter', values: { count: 3, rate: 0.1 }, thresholds: { 'count==0': { ok: false } } },
    [`${METRICS.rateFindings}{rule:rate.remaining}`]: { type: 'counter', values: { count: 0, rate: 0 }, thresholds: { 'count==0': { ok: true } } },
    [`${METRICS.rateFindings}{rule:platform.retry-after-reset}`]: {
      type: 'counter',
      values: { count: 2, rate: 0.1 },
      thresholds: { 'count>=0': { ok: true } },
    },
    // Judged: rate.retry-after on 5 answers (3 broke it), rate.remaining on 40; rate.429 on none.
    [`${METRICS.rulesJudged}{rule:rate.retry-after}`]: { type: 'counter', values: { count: 5, rate: 0.2 }, thresholds: { 'count>=0': { ok: true } } },
    [`${METRICS.rulesJudged}{rule:rate.remaining}`]: { type: 'counter', values: { count: 40, rate: 1.8 }, thresholds: { 'count>=0': { ok: true } } },
    [`${METRICS.rulesJudged}{rule:rate.429}`]: { type: 'counter', values: { count: 0, rate: 0 }, thresholds: { 'count>=0': { ok: true } } },
    [`${METRICS.rulesJudged}{rule:platform.retry-after-reset}`]: { type: 'counter', values: { count: 2, rate: 0.1 }, thresholds: { 'count>=0': { ok: true } } },
    [METRICS.budgetMeasured]: {
      type: 'trend',
      values: { min: 20, max: 20, avg: 20, count: 1 },
      thresholds: { 'min>=20': { ok: true }, 'max<=20': { ok: true } },
    },
    [`${METRICS.plotRemaining}{bucket:00}`]: { type: 'trend', values: { min: 12, max: 19, count: 8 }, thresholds: { 'min>=0': { ok: true } } },
    [`${METRICS.plotRemaining}{bucket:01}`]: { type: 'trend', values: { min: 0, max: 11, count: 12 }, thresholds: { 'min>=0': { ok: true } } },
    [`${METRICS.plotRemaining}{bucket:02}`]: { type: 'trend', values: { count: 0 }, thresholds: { 'min>=0': { ok: true } } },
    [`${METRICS.plotRefused}{bucket:00}`]: { type: 'counter', values: { count: 0 }, thresholds: { 'count>=0': { ok: true } } },
    [`${METRICS.plotRefused}{bucket:01}`]: { type: 'counter', values: { count: 2 }, thresholds: { 'count>=0': { ok: true } } },
    [`${METRICS.plotRefused}{bucket:02}`]: { type: 'counter', values: { count: 9 }, thresholds: { 'count>=0': { ok: true } } },
  },
};

const OPTIONS = { script: 'rate-limit', rules: { metric: METRICS.rateFindings, ids: RATE_IDS }, plotBucketMs: 1000 };
const ENV = { reportDir: 'reports/load', clientSecret: SECRET, baseUrl: 'http://127.0.0.1:4011' };

test.describe('reading k6 summary data', () => {
  test('submetric keys give their tags', () => {
    expect(parseMetricKey('lp_rate_findings{rule:rate.429}')).toEqual({ metric: 'lp_rate_findings', tags: { rule: 'rate.429' } });
    expect(parseMetricKey('http_req_duration{expected_response:true,name:x}')).toEqual({
      metric: 'http_req_duration',
      tags: { expected_response: 'true', name: 'x' },
    });
    expect(parseMetricKey('checks')).toEqual({ metric: 'checks', tags: {} });
  });

  test('the report: rules counted, thresholds with the value they read, plot buckets in order, plot metrics left out', () => {
    const report = buildReport(DATA, OPTIONS);
    expect(report.ok).toBe(false);
    const rule = (id: RuleId) => report.lines.find((l) => l.name === named(id));
    expect(rule('rate.retry-after')).toEqual({
      kind: 'rules',
      name: named('rate.retry-after'),
      state: 'broken',
      detail: 'broken 3 time(s) in 5 judged; expected never',
    });
    expect(rule('rate.remaining')).toMatchObject({ state: 'ok', detail: 'held in 40 judged' });
    expect(rule('rate.429')).toMatchObject({ state: 'not checked', detail: 'no request exercised it' });
    expect(rule('platform.retry-after-reset')).toMatchObject({ state: 'deviates' });
    expect(report.lines).toContainEqual({ kind: 'thresholds', name: `${METRICS.budgetMeasured} min>=20`, state: 'ok', detail: 'got 20' });
    expect(report.lines).toContainEqual({ kind: 'thresholds', name: 'http_req_failed rate==0', state: 'ok', detail: 'got 0' });
    expect(report.lines.some((l) => l.name.startsWith(METRICS.plotRemaining) || l.name.includes('{rule:'))).toBe(false);
    expect(Object.keys(report.metrics).some((name) => name.startsWith(METRICS.plotRefused))).toBe(false);
    expect(report.plot).toEqual(plotSeries(DATA.metrics));
    expect(plotSeries(DATA.metrics)).toEqual([
      { bucket: 0, remainingMin: 12, remainingMax: 19, refused: 0 },
      { bucket: 1, remainingMin: 0, remainingMax: 11, refused: 2 },
      { bucket: 2, remainingMin: undefined, remainingMax: undefined, refused: 9 },
    ]);
  });
});

test.describe('the report files', () => {
  const files = summaryFiles(DATA, OPTIONS, ENV);

  test('are JUnit XML, JSON and HTML under reports/load, plus stdout', () => {
    expect(Object.keys(files).sort()).toEqual([
      'reports/load/rate-limit.junit.xml',
      'reports/load/rate-limit.summary.html',
      'reports/load/rate-limit.summary.json',
      'stdout',
    ]);
  });

  test('never contain the access token, the refresh token or the client secret, in any escaping', () => {
    for (const [name, text] of Object.entries(files)) {
      for (const secret of [TOKEN, 'refresh-me-please', SECRET, escapeXml(SECRET), JSON.stringify(SECRET).slice(1, -1)]) {
        expect(text.includes(secret), `${name} contains ${secret}`).toBe(false);
      }
    }
    expect(files['reports/load/rate-limit.summary.json']).toContain('[redacted]');
  });

  test('JUnit: a failing testcase per broken rule and failed check, saying what was expected', () => {
    const xml = files['reports/load/rate-limit.junit.xml'] ?? '';
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="load.rate-limit" tests="\d+" failures="3"/);
    const named = (id: RuleId) => `name="${escapeXml(`${id}: ${RULES[id].statement}`)}" time="0">`;
    expect(xml).toContain(`${named('rate.retry-after')}<failure message="broken 3 time(s) in 5 judged; expected never" type="rules"`);
    expect(xml).toContain(
      `${named('platform.retry-after-reset')}<system-out>platform deviation: broken 2 time(s) in 2 judged; expected never (fails only with LP_STRICT=1)</system-out>`,
    );
    expect(xml).toContain(`${named('rate.remaining')}</testcase>`);
    expect(xml).toContain(`${named('rate.429')}<skipped message="not checked: no request exercised it"/></testcase>`);
    expect(xml).toContain('<failure message="expected count==0, got 3"');
    expect(xml).toContain('a &lt;b&gt;bold&lt;/b&gt; check');
    expect(xml).not.toMatch(/<b>bold/);
  });

  test('HTML: self-contained, escaped, with the SVG plot', () => {
    const html = files['reports/load/rate-limit.summary.html'] ?? '';
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain('a &lt;b&gt;bold&lt;/b&gt; check');
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(html).toContain('<polyline class="remaining"');
    expect(html).toContain('<rect class="refused"');
  });

  test('stdout: verdict first, then every line with what it says', () => {
    const text = files.stdout ?? '';
    expect(text.split('\n')[0]).toBe('load/rate-limit: FAILED in 22.5 s');
    expect(text).toContain(`FAIL ${named('rate.retry-after')} (broken 3 time(s) in 5 judged; expected never)`);
    expect(text).toContain(`ok   ${named('rate.remaining')} (held in 40 judged)\n`);
    expect(text).toContain(`--   ${named('rate.429')} (not checked: no request exercised it)`);
    expect(text).toContain(`warn ${named('platform.retry-after-reset')} (platform deviation: broken 2 time(s) in 2 judged`);
    expect(text).toContain('FAIL leaky [redacted] (1 of 2 failed)');
  });

  test('LP_STRICT=1: a broken platform rule fails the run', () => {
    const report = buildReport(DATA, { ...OPTIONS, rules: { ...OPTIONS.rules, strict: true } });
    expect(report.lines.find((l) => l.name === named('platform.retry-after-reset'))).toMatchObject({ state: 'broken' });
  });
});

test('a passing run without a plot', () => {
  const data: K6SummaryData = { metrics: { checks: { type: 'rate', values: { rate: 1 }, thresholds: { 'rate==1': { ok: true } } } } };
  const report = buildReport(data, { script: 'smoke' });
  expect(report).toMatchObject({
    ok: true,
    plot: undefined,
    lines: [{ kind: 'thresholds', name: 'checks rate==1', state: 'ok', detail: 'got 1' }],
  });
});

test.describe('nothing exercised is never called ok', () => {
  const IDS: RuleId[] = ['token.response', 'snapshot.next', 'snapshot.traversal'];
  const rules = { metric: METRICS.smokeViolations, ids: IDS, notChecked: { 'snapshot.traversal': 'LP_EXPECTED_ITEMS is not set' } };
  const judgedOnly = (counts: Partial<Record<RuleId, number>>) =>
    Object.fromEntries(
      IDS.map((rule) => [
        `${METRICS.rulesJudged}{rule:${rule}}`,
        { type: 'counter' as const, values: { count: counts[rule] ?? 0 }, thresholds: { 'count>=0': { ok: true } } },
      ]),
    );

  test('a check with zero passes and zero fails is "not checked", in every output', () => {
    const data: K6SummaryData = {
      root_group: { name: '', path: '', groups: [], checks: [{ name: 'the next page is reachable', passes: 0, fails: 0 }] },
      metrics: { ...judgedOnly({ 'token.response': 1 }) },
    };
    const files = summaryFiles(data, { script: 'smoke', rules });
    expect(JSON.parse(files['reports/load/smoke.summary.json'] ?? '{}')).toMatchObject({
      lines: [
        ...IDS.map(() => expect.anything()),
        { kind: 'checks', name: 'the next page is reachable', state: 'not checked', detail: 'no request exercised it' },
      ],
    });
    expect(files['reports/load/smoke.junit.xml']).toContain(
      'name="the next page is reachable" time="0"><skipped message="not checked: no request exercised it"/>',
    );
    expect(files['reports/load/smoke.summary.html']).toContain('<td class="not-checked">not checked</td><td>the next page is reachable</td>');
    expect(files.stdout).not.toMatch(/^ {2}ok .*next page/m);
  });

  test('a rule: ok when judged and held, broken when a judgement failed, else not checked with the reason the script gives', () => {
    const data: K6SummaryData = {
      metrics: {
        ...judgedOnly({ 'token.response': 3, 'snapshot.next': 0 }),
        [METRICS.smokeViolations]: { type: 'counter', values: { count: 0 }, thresholds: { 'count==0': { ok: true } } },
      },
    };
    const report = buildReport(data, { script: 'smoke', rules });
    expect(report.lines.filter((l) => l.kind === 'rules').map((l) => [l.name, l.state, l.detail])).toEqual([
      [named('token.response'), 'ok', 'held in 3 judged'],
      [named('snapshot.next'), 'not checked', 'no request exercised it'],
      [named('snapshot.traversal'), 'not checked', 'LP_EXPECTED_ITEMS is not set'],
    ]);
    expect(report.ok).toBe(true);
    const files = summaryFiles(data, { script: 'smoke', rules });
    const text = files.stdout ?? '';
    expect(text).toContain(`  ok   ${named('token.response')} (held in 3 judged)\n`);
    expect(text).toContain(`  --   ${named('snapshot.next')} (not checked: no request exercised it)`);
    expect(text).toContain(`  --   ${named('snapshot.traversal')} (not checked: LP_EXPECTED_ITEMS is not set)`);
    const xml = files['reports/load/smoke.junit.xml'] ?? '';
    expect(xml).toMatch(/<testsuites name="load.smoke" tests="4" failures="0" errors="0" skipped="2"/);
    expect(xml).toContain('<skipped message="not checked: LP_EXPECTED_ITEMS is not set"/>');
  });

  test('a refused key: the run fails, names the settings, and calls nothing ok', () => {
    const data: K6SummaryData = {
      state: { testRunDurationMs: 900 },
      metrics: {
        ...judgedOnly({}),
        [METRICS.keyRefused]: { type: 'counter', values: { count: 1, rate: 1 } },
        [METRICS.smokeViolations]: { type: 'counter', values: { count: 0 }, thresholds: { 'count==0': { ok: true } } },
        http_req_failed: { type: 'rate', values: { rate: 0, passes: 0, fails: 1 }, thresholds: { 'rate==0': { ok: true } } },
        checks: { type: 'rate', values: { rate: 0, passes: 0, fails: 0 }, thresholds: { 'rate==1': { ok: true } } },
        // The refused token request itself, where the script does not expect a refusal.
        [METRICS.walksCompleted]: { type: 'counter', values: { count: 0 }, thresholds: { 'count>0': { ok: false } } },
      },
    };
    const files = summaryFiles(data, { script: 'smoke', rules });
    const report = JSON.parse(files['reports/load/smoke.summary.json'] ?? '{}') as {
      ok: boolean;
      notice: string;
      lines: Array<{ kind: string; state: string; detail: string }>;
    };
    expect(report.ok).toBe(false);
    expect(report.notice).toBe(KEY_REFUSED);
    expect(report.lines.every((l) => l.kind === 'checks' || (l.state === 'not checked' && l.detail === KEY_REFUSED_LINE))).toBe(true);
    const text = files.stdout ?? '';
    expect(text.split('\n')[0]).toBe(`load/smoke: FAILED in 0.9 s: ${KEY_REFUSED}`);
    expect(text).toContain('LP_CLIENT_SECRET');
    expect(text).not.toMatch(/^ {2}(ok|FAIL) /m);
    const xml = files['reports/load/smoke.junit.xml'] ?? '';
    expect(xml).not.toMatch(/time="0"><\/testcase>/);
    // One failure, the run's own, naming the settings; every rule and threshold skipped.
    expect(xml).toMatch(/failures="1" errors="0" skipped="7"/);
    expect(xml).toContain(`<testcase classname="load.smoke.run" name="the run exercised the service" time="0"><failure message="${KEY_REFUSED}"`);
    expect(files['reports/load/smoke.summary.html']).not.toContain('class="ok"');
  });

  test('rules judged by nobody: the run does not pass', () => {
    const report = buildReport({ metrics: judgedOnly({}) }, { script: 'smoke', rules });
    expect(report).toMatchObject({ ok: false, notice: 'no request exercised any rule: nothing was checked' });
  });
});

test('k6 1.5+ --new-machine-readable-summary: another shape, said in one sentence, nothing called ok, no crash', () => {
  // The shape of k6's machine-readable summary schema 1.0.0: metrics listed under `results`, no thresholds.
  const data = {
    version: '1.0.0',
    config: { duration: 22.5, execution: 'local', script: 'rate-limit.js' },
    metadata: { generatedAt: '2026-01-01T00:00:00Z', k6Version: '1.5.0' },
    results: {
      checks: { metrics: [], results: [{ name: 'a check', passes: 3, fails: 0 }] },
      metrics: [{ name: 'http_reqs', type: 'counter', contains: 'default', values: { count: 66, rate: 2.9 } }],
    },
  } as unknown as K6SummaryData;
  const report = buildReport(data, { script: 'rate-limit', rules: { metric: METRICS.rateFindings, ids: RATE_IDS } });
  expect(report.ok).toBe(false);
  expect(report.notice).toBe(NEW_SUMMARY_SHAPE);
  expect(report.lines.map((l) => l.state)).toEqual(RATE_IDS.map(() => 'not checked'));
  const files = summaryFiles(data, { script: 'rate-limit' });
  expect(files.stdout?.split('\n')[0]).toBe(`load/rate-limit: FAILED: ${NEW_SUMMARY_SHAPE}`);
  expect(files['reports/load/rate-limit.junit.xml']).toContain('<failure');
});

test('helpers: secrets are collected by key name; the plot copes with no data', () => {
  expect(collectSecrets({ accessToken: 'x1', nested: { client_secret: 'y2', other: 'z' }, list: [{ refresh_token: 'w3' }] })).toEqual(['x1', 'y2', 'w3']);
  expect(svgPlot([], 1000)).toMatch(/^<svg .*<\/svg>$/);
});
