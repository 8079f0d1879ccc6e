/**
 * handleSummary helpers: from k6's end-of-test data to a JUnit XML file (for CI test reports), a
 * JSON file (for tools) and a self-contained HTML page (for people), plus a short text for stdout.
 *
 * k6 hands handleSummary aggregates only. What the reports need beyond k6's own metrics arrives as
 * thresholded submetrics (load/lib/plans/): `<violations>{rule:<rule>}` tells which rule broke,
 * `lp_rules_judged{rule:<rule>}` how often it was judged at all, `lp_plot_remaining{bucket:NN}` /
 * `lp_plot_429{bucket:NN}` carry the probe's plot, one bucket each.
 *
 * Every line has one of three states: ok (exercised, held), broken (exercised, failed) and not checked
 * (no request exercised it), with the reason. A rule nothing exercised is never called ok, and a run
 * whose key was refused (`lp_key_refused`) or that exercised no rule at all never passes.
 *
 * Nothing from `setup_data` is written (it holds the access token), every text is escaped for its
 * format, and every known secret is replaced by [redacted] in every output as a last line of defence.
 *
 * One file, longer than most, on purpose: the four outputs are renderings of one Report built here,
 * written together by one handleSummary, and share its escaping and redaction; split, each piece would
 * import the rest.
 */
import { Redactor } from '../../contracts/redact.ts';
import { RULES, type RuleId } from '../../contracts/rules/index.ts';
import { METRICS } from './metrics.ts';

export interface K6MetricSummary {
  readonly type: 'counter' | 'gauge' | 'rate' | 'trend';
  readonly contains?: 'default' | 'time' | 'data';
  readonly values: Readonly<Record<string, number>>;
  readonly thresholds?: Readonly<Record<string, { readonly ok: boolean }>>;
}

interface K6Check {
  readonly name: string;
  readonly path?: string;
  readonly passes: number;
  readonly fails: number;
}

interface K6Group {
  readonly name: string;
  readonly path?: string;
  readonly groups: readonly K6Group[];
  readonly checks: readonly K6Check[];
}

/** The part of k6's handleSummary data these helpers read. */
export interface K6SummaryData {
  readonly metrics: Readonly<Record<string, K6MetricSummary>>;
  readonly root_group?: K6Group;
  readonly state?: { readonly testRunDurationMs?: number };
  readonly setup_data?: unknown;
}

export interface SummaryOptions {
  /** Script name, e.g. `rate-limit`: names the files and the JUnit suite. */
  readonly script: string;
  /** Directory of the report files (must exist: k6 v0.47 does not create it). Default `reports/load`. */
  readonly dir?: string;
  /**
   * The counter whose `{rule:…}` submetrics name broken rules, and the rules (ids of contracts/rules/,
   * each worded by its statement); a platform rule is reported without failing the run unless `strict`.
   */
  readonly rules?: {
    readonly metric: string;
    readonly ids: readonly RuleId[];
    readonly strict?: boolean;
    /** Why a rule is not judged in this run's configuration (e.g. a setting left unset); default: no request exercised it. */
    readonly notChecked?: Partial<Record<RuleId, string>>;
  };
  /** Bucket length of the probe's plot; no plot when absent. */
  readonly plotBucketMs?: number;
  /** Texts to replace by [redacted] wherever they appear (client secret, tokens). */
  readonly secrets?: readonly string[];
  /** Run date written into the reports; default: none (keeps the output reproducible in tests). */
  readonly generatedAt?: string;
  /** Target origin shown in the reports (never credentials). */
  readonly target?: string;
}

/** ok: exercised and held; broken: exercised and failed; not checked: nothing exercised it. */
type LineState = 'ok' | 'broken' | 'not checked';

interface ThresholdResult {
  readonly metric: string;
  readonly expression: string;
  readonly ok: boolean;
  readonly state: LineState;
  /** Why it is not checked. */
  readonly reason?: string;
  /** The metric's value the expression reads, where one is known. */
  readonly value: number | undefined;
}

interface RuleResult {
  readonly rule: string;
  readonly sentence: string;
  readonly count: number;
  /** Times a request was judged against the rule, held or broken. */
  readonly judged: number;
  readonly state: LineState;
  /** Why it is not checked. */
  readonly reason?: string;
  /** Reported, not failing: a platform deviation without LP_STRICT=1. */
  readonly reportedOnly: boolean;
}

interface CheckResult {
  readonly name: string;
  readonly group: string;
  readonly passes: number;
  readonly fails: number;
  readonly state: LineState;
}

export interface PlotPoint {
  readonly bucket: number;
  /** Lowest and highest X-Rate-Limit-Remaining seen in the bucket; undefined when no response carried it. */
  readonly remainingMin: number | undefined;
  readonly remainingMax: number | undefined;
  readonly refused: number;
}

export interface Report {
  readonly script: string;
  readonly ok: boolean;
  /** Why the run checked nothing (a refused key, no rule exercised); undefined when it checked something. */
  readonly notice: string | undefined;
  readonly durationMs: number | undefined;
  readonly target: string | undefined;
  readonly generatedAt: string | undefined;
  readonly thresholds: readonly ThresholdResult[];
  readonly rules: readonly RuleResult[];
  readonly checks: readonly CheckResult[];
  /** k6 and custom metrics, without the plot's per-bucket submetrics. */
  readonly metrics: Readonly<Record<string, { readonly type: string; readonly values: Readonly<Record<string, number>> }>>;
  readonly plot: readonly PlotPoint[] | undefined;
  readonly plotBucketMs: number | undefined;
}

const PLOT_PREFIXES = [`${METRICS.plotRemaining}{`, `${METRICS.plotRefused}{`];
const isPlotMetric = (name: string) => PLOT_PREFIXES.some((prefix) => name.startsWith(prefix));

/** The name and tags of a submetric key `metric{tag:value,...}`. */
export function parseMetricKey(key: string): { metric: string; tags: Record<string, string> } {
  const brace = key.indexOf('{');
  if (brace < 0 || !key.endsWith('}')) return { metric: key, tags: {} };
  const tags: Record<string, string> = {};
  for (const part of key.slice(brace + 1, -1).split(',')) {
    const colon = part.indexOf(':');
    if (colon > 0) tags[part.slice(0, colon).trim()] = part.slice(colon + 1).trim();
  }
  return { metric: key.slice(0, brace), tags };
}

/** The value a threshold expression like `p(95)<500` or `count==0` reads. */
function thresholdValue(metric: K6MetricSummary, expression: string): number | undefined {
  const match = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*[<>=!]/.exec(expression);
  const aggregate = match?.[1];
  if (aggregate === undefined) return undefined;
  const values = metric.values;
  // A metric without samples has no value to show (k6 passes its thresholds).
  if (metric.type === 'rate' && values.passes !== undefined && values.passes + (values.fails ?? 0) === 0) return undefined;
  if (metric.type === 'trend' && values.count === 0) return undefined;
  if (aggregate in values) return values[aggregate];
  // k6 names the 95th percentile `p(95)` in values too; `value` is the rate of a Rate metric.
  if (aggregate === 'rate' && 'rate' in values) return values.rate;
  return undefined;
}

/** A Rate or Trend k6 saw no sample of (a Counter's zero cannot tell). */
function hasNoSamples(metric: K6MetricSummary): boolean {
  const values = metric.values;
  if (metric.type === 'rate') return values.passes !== undefined && values.passes + (values.fails ?? 0) === 0;
  if (metric.type === 'trend') return values.count === 0;
  return false;
}

function flattenChecks(group: K6Group | undefined, out: CheckResult[] = []): CheckResult[] {
  if (!group) return out;
  for (const check of group.checks)
    out.push({ name: check.name, group: group.path ?? group.name, passes: check.passes, fails: check.fails, state: lineState(check.passes, check.fails) });
  for (const child of group.groups) flattenChecks(child, out);
  return out;
}

function lineState(held: number, broken: number): LineState {
  return broken > 0 ? 'broken' : held > 0 ? 'ok' : 'not checked';
}

/** The sentence of a run whose key the token endpoint refused: it names the settings, never the service. */
export const KEY_REFUSED =
  'the key did not work: the token endpoint refused LP_CLIENT_ID / LP_CLIENT_SECRET (or a scope of LP_SCOPES), so no request exercised any rule';
/** Why each line of such a run is not checked. */
export const KEY_REFUSED_LINE = 'the key did not work (LP_CLIENT_ID / LP_CLIENT_SECRET), so no request exercised it';
/** The default reason of a rule nothing exercised. */
const NOT_EXERCISED = 'no request exercised it';

/** The plot's points from the per-bucket submetrics, in bucket order. */
export function plotSeries(metrics: Readonly<Record<string, K6MetricSummary>>): PlotPoint[] {
  const byBucket = new Map<number, { remainingMin?: number; remainingMax?: number; refused: number }>();
  for (const key of Object.keys(metrics)) {
    if (!isPlotMetric(key)) continue;
    const { metric, tags } = parseMetricKey(key);
    const bucket = Number(tags.bucket);
    const summary = metrics[key];
    if (!Number.isInteger(bucket) || !summary) continue;
    const point = byBucket.get(bucket) ?? { refused: 0 };
    if (metric === METRICS.plotRemaining && (summary.values.count ?? 1) > 0 && summary.values.min !== undefined) {
      point.remainingMin = summary.values.min;
      point.remainingMax = summary.values.max;
    }
    if (metric === METRICS.plotRefused) point.refused = summary.values.count ?? 0;
    byBucket.set(bucket, point);
  }
  return [...byBucket.keys()]
    .sort((a, b) => a - b)
    .map((bucket) => {
      const point = byBucket.get(bucket) ?? { refused: 0 };
      return { bucket, remainingMin: point.remainingMin, remainingMax: point.remainingMax, refused: point.refused };
    });
}

/** Reads k6's summary data into the report every output is written from. */
export function buildReport(data: K6SummaryData, options: SummaryOptions): Report {
  const thresholds: ThresholdResult[] = [];
  const metrics: Record<string, { type: string; values: Record<string, number> }> = {};
  const counts: Record<string, number> = {};
  const judged: Record<string, number> = {};
  for (const key of Object.keys(data.metrics).sort()) {
    const metric = data.metrics[key];
    if (!metric) continue;
    const plot = isPlotMetric(key);
    if (!plot) metrics[key] = { type: metric.type, values: { ...metric.values } };
    const parsed = parseMetricKey(key);
    if (options.rules && parsed.metric === options.rules.metric && parsed.tags.rule !== undefined) counts[parsed.tags.rule] = metric.values.count ?? 0;
    if (parsed.metric === METRICS.rulesJudged && parsed.tags.rule !== undefined) judged[parsed.tags.rule] = metric.values.count ?? 0;
  }
  const keyRefused = (data.metrics[METRICS.keyRefused]?.values.count ?? 0) > 0;
  const rules: RuleResult[] = (options.rules?.ids ?? []).map((rule): RuleResult => {
    const count = counts[rule] ?? 0;
    // A finding is a judgement even where the judged count went missing.
    const times = Math.max(judged[rule] ?? 0, count);
    const state = lineState(times - count, count);
    const reason = state !== 'not checked' ? undefined : keyRefused ? KEY_REFUSED_LINE : (options.rules?.notChecked?.[rule] ?? NOT_EXERCISED);
    const reportedOnly = options.rules?.strict !== true && RULES[rule].level === 'platform';
    return { rule, sentence: RULES[rule].statement, count, judged: times, state, ...(reason === undefined ? {} : { reason }), reportedOnly };
  });
  const nothingJudged = rules.length > 0 && rules.every((r) => r.state === 'not checked');
  const notice = keyRefused ? KEY_REFUSED : nothingJudged ? 'no request exercised any rule: nothing was checked' : undefined;
  for (const key of Object.keys(data.metrics).sort()) {
    const metric = data.metrics[key];
    if (!metric?.thresholds || isPlotMetric(key)) continue;
    // The violations counter's total says nothing when no rule was judged; after a refused key, nothing does.
    const unjudged = keyRefused ? KEY_REFUSED_LINE : notice !== undefined && parseMetricKey(key).metric === options.rules?.metric ? notice : undefined;
    for (const expression of Object.keys(metric.thresholds)) {
      const ok = metric.thresholds[expression]?.ok ?? false;
      const value = thresholdValue(metric, expression);
      const noSamples = value === undefined && hasNoSamples(metric) ? 'no samples' : undefined;
      // After a refused key even a failed threshold (the refusal itself counted as a failed request, no
      // walk completed) says nothing of the service: the run fails on the key, named in the notice.
      const reason = keyRefused ? KEY_REFUSED_LINE : ok ? (unjudged ?? noSamples) : undefined;
      const state: LineState = reason !== undefined ? 'not checked' : ok ? 'ok' : 'broken';
      thresholds.push({ metric: key, expression, ok, state, ...(reason === undefined ? {} : { reason }), value });
    }
  }
  const checks = flattenChecks(data.root_group);
  const ok =
    notice === undefined && thresholds.every((t) => t.ok) && checks.every((c) => c.fails === 0) && rules.every((r) => r.state !== 'broken' || r.reportedOnly);
  return {
    script: options.script,
    ok,
    notice,
    durationMs: data.state?.testRunDurationMs,
    target: options.target,
    generatedAt: options.generatedAt,
    thresholds,
    rules,
    checks,
    metrics,
    plot: options.plotBucketMs === undefined ? undefined : plotSeries(data.metrics),
    plotBucketMs: options.plotBucketMs,
  };
}

// ---------------------------------------------------------------------------------------------
// Escaping and redaction

export function escapeXml(text: string): string {
  // Characters XML 1.0 forbids even escaped are dropped (control characters other than tab, LF, CR).
  // eslint-disable-next-line no-control-regex -- this is the list of control characters to drop
  const clean = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');
  return clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** HTML text and attribute values: the same five characters as XML. */
function escapeHtml(text: string): string {
  return escapeXml(text);
}

/** Every known secret and every placed credential replaced, by the project's one redactor. */
export function redact(text: string, secrets: readonly string[]): string {
  return new Redactor(...secrets).redact(text);
}

/** Every string under a key that names a token or a secret, anywhere in `value` (e.g. setup data). */
export function collectSecrets(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 8 || value === null || typeof value !== 'object') return out;
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'string' && /token|secret|password|authorization/i.test(key)) out.push(member);
    else collectSecrets(member, out, depth + 1);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Outputs

function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? '0' : (ms / 1000).toFixed(3);
}

/** JUnit XML: one testcase per threshold, per rule and per check; failures say what was expected and what came, skips why nothing was checked. */
export function junitXml(report: Report): string {
  const cases: string[] = [];
  const suite = `load.${report.script}`;
  let failures = 0;
  let skipped = 0;
  type Outcome = { failure: string } | { skipped: string } | { note?: string };
  const testcase = (kind: 'run' | 'rules' | 'thresholds' | 'checks', name: string, outcome: Outcome) => {
    const classname = `${suite}.${kind}`;
    let body = '';
    if ('failure' in outcome) {
      failures++;
      body = `<failure message="${escapeXml(outcome.failure)}" type="${kind}">${escapeXml(outcome.failure)}</failure>`;
    } else if ('skipped' in outcome) {
      skipped++;
      body = `<skipped message="${escapeXml(`not checked: ${outcome.skipped}`)}"/>`;
    } else if (outcome.note !== undefined) body = `<system-out>${escapeXml(outcome.note)}</system-out>`;
    cases.push(`    <testcase classname="${escapeXml(classname)}" name="${escapeXml(name)}" time="0">${body}</testcase>`);
  };
  // A run that checked nothing fails as a run: a report of skips alone would read as green.
  if (report.notice !== undefined) testcase('run', 'the run exercised the service', { failure: report.notice });
  for (const rule of report.rules) {
    const name = `${rule.rule}: ${rule.sentence}`;
    const broken = `broken ${rule.count} time(s) in ${rule.judged} judged; expected never`;
    if (rule.state === 'not checked') testcase('rules', name, { skipped: rule.reason ?? NOT_EXERCISED });
    else if (rule.state === 'ok') testcase('rules', name, {});
    else if (rule.reportedOnly) testcase('rules', name, { note: `platform deviation: ${broken} (fails only with LP_STRICT=1)` });
    else testcase('rules', name, { failure: broken });
  }
  for (const t of report.thresholds) {
    if (t.metric.indexOf('{rule:') >= 0) continue; // reported as rules above
    const name = `${t.metric} ${t.expression}`;
    if (t.state === 'broken') testcase('thresholds', name, { failure: `expected ${t.expression}, got ${formatNumber(t.value)}` });
    else testcase('thresholds', name, t.state === 'not checked' ? { skipped: t.reason ?? NOT_EXERCISED } : {});
  }
  for (const c of report.checks) {
    const name = c.group && c.group !== '' && c.group !== '::' ? `${c.group} › ${c.name}` : c.name;
    if (c.state === 'broken') testcase('checks', name, { failure: `${c.fails} of ${c.passes + c.fails} failed` });
    else testcase('checks', name, c.state === 'not checked' ? { skipped: NOT_EXERCISED } : {});
  }
  const header = '<?xml version="1.0" encoding="UTF-8"?>';
  const attrs = `name="${escapeXml(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}"`;
  return `${header}\n<testsuites ${attrs}>\n  <testsuite ${attrs}>\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

function jsonSummary(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The console's mark of a line: ok, FAIL, warn (a platform deviation reported only) or "--" (not checked). */
function mark(state: LineState, reportedOnly = false): string {
  return state === 'ok' ? 'ok  ' : state === 'not checked' ? '--  ' : reportedOnly ? 'warn' : 'FAIL';
}

/** A few lines for the console: the verdict, then every rule and threshold in one of its three states, then what failed. */
export function textSummary(report: Report): string {
  const lines = [
    `load/${report.script}: ${report.ok ? 'PASSED' : 'FAILED'}${report.durationMs === undefined ? '' : ` in ${(report.durationMs / 1000).toFixed(1)} s`}${report.notice === undefined ? '' : `: ${report.notice}`}`,
  ];
  for (const rule of report.rules) {
    const detail =
      rule.state === 'not checked'
        ? ` (not checked: ${rule.reason ?? NOT_EXERCISED})`
        : rule.state === 'broken'
          ? ` (${rule.count}x${rule.reportedOnly ? ', a platform deviation' : ''})`
          : '';
    lines.push(`  ${mark(rule.state, rule.reportedOnly)} ${rule.rule}: ${rule.sentence}${detail}`);
  }
  for (const t of report.thresholds) {
    if (t.metric.indexOf('{rule:') >= 0) continue;
    const detail = t.state === 'not checked' ? `not checked: ${t.reason ?? NOT_EXERCISED}` : `got ${formatNumber(t.value)}`;
    lines.push(`  ${mark(t.state)} ${t.metric} ${t.expression} (${detail})`);
  }
  const failedChecks = report.checks.filter((c) => c.fails > 0);
  const checkTotal = report.checks.reduce((n, c) => n + c.passes + c.fails, 0);
  lines.push(checkTotal === 0 ? '  checks: none ran' : `  checks: ${checkTotal - failedChecks.reduce((n, c) => n + c.fails, 0)} of ${checkTotal} passed`);
  for (const c of failedChecks) lines.push(`  FAIL check "${c.name}": ${c.fails} of ${c.passes + c.fails} failed`);
  return `${lines.join('\n')}\n`;
}

const PLOT = { width: 760, height: 260, left: 52, right: 52, top: 20, bottom: 36 } as const;

/** An inline SVG: X-Rate-Limit-Remaining (band from min to max, line at min) and 429s (bars, right axis) per bucket. */
export function svgPlot(points: readonly PlotPoint[], bucketMs: number): string {
  const innerW = PLOT.width - PLOT.left - PLOT.right;
  const innerH = PLOT.height - PLOT.top - PLOT.bottom;
  const n = Math.max(1, points.length === 0 ? 1 : (points[points.length - 1]?.bucket ?? 0) + 1);
  const maxRemaining = Math.max(1, ...points.map((p) => p.remainingMax ?? 0));
  const maxRefused = Math.max(1, ...points.map((p) => p.refused));
  const step = innerW / n;
  const x = (bucket: number) => PLOT.left + bucket * step;
  const yRemaining = (value: number) => PLOT.top + innerH - (value / maxRemaining) * innerH;
  const yRefused = (value: number) => PLOT.top + innerH - (value / maxRefused) * innerH;
  const parts: string[] = [];
  for (const p of points) {
    if (p.refused > 0) {
      const top = yRefused(p.refused);
      parts.push(
        `<rect class="refused" x="${(x(p.bucket) + step * 0.15).toFixed(1)}" y="${top.toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${(PLOT.top + innerH - top).toFixed(1)}"><title>${escapeXml(`${p.refused} × 429 at ${((p.bucket * bucketMs) / 1000).toFixed(0)} s`)}</title></rect>`,
      );
    }
    if (p.remainingMin !== undefined && p.remainingMax !== undefined && p.remainingMax > p.remainingMin) {
      const top = yRemaining(p.remainingMax);
      parts.push(
        `<rect class="band" x="${x(p.bucket).toFixed(1)}" y="${top.toFixed(1)}" width="${step.toFixed(1)}" height="${(yRemaining(p.remainingMin) - top).toFixed(1)}"/>`,
      );
    }
  }
  const line = points
    .filter((p) => p.remainingMin !== undefined)
    .map((p) => `${(x(p.bucket) + step / 2).toFixed(1)},${yRemaining(p.remainingMin ?? 0).toFixed(1)}`)
    .join(' ');
  if (line !== '') parts.push(`<polyline class="remaining" points="${line}"/>`);
  const bottom = PLOT.top + innerH;
  const totalSeconds = (n * bucketMs) / 1000;
  const axes = [
    `<line class="axis" x1="${PLOT.left}" y1="${bottom}" x2="${PLOT.left + innerW}" y2="${bottom}"/>`,
    `<line class="axis" x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${bottom}"/>`,
    `<line class="axis" x1="${PLOT.left + innerW}" y1="${PLOT.top}" x2="${PLOT.left + innerW}" y2="${bottom}"/>`,
    `<text x="${PLOT.left - 6}" y="${PLOT.top + 4}" text-anchor="end">${maxRemaining}</text>`,
    `<text x="${PLOT.left - 6}" y="${bottom}" text-anchor="end">0</text>`,
    `<text x="${PLOT.left + innerW + 6}" y="${PLOT.top + 4}">${maxRefused}</text>`,
    `<text x="${PLOT.left + innerW + 6}" y="${bottom}">0</text>`,
    `<text x="${PLOT.left}" y="${bottom + 16}">0 s</text>`,
    `<text x="${PLOT.left + innerW}" y="${bottom + 16}" text-anchor="end">${totalSeconds.toFixed(0)} s</text>`,
    `<text x="${PLOT.left + innerW / 2}" y="${bottom + 30}" text-anchor="middle">time since the scenario started (${(bucketMs / 1000).toFixed(0)} s per bucket)</text>`,
    `<text x="12" y="${PLOT.top + innerH / 2}" transform="rotate(-90 12 ${PLOT.top + innerH / 2})" text-anchor="middle">X-Rate-Limit-Remaining</text>`,
    `<text x="${PLOT.width - 8}" y="${PLOT.top + innerH / 2}" transform="rotate(90 ${PLOT.width - 8} ${PLOT.top + innerH / 2})" text-anchor="middle">429 responses</text>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${PLOT.width} ${PLOT.height}" width="${PLOT.width}" height="${PLOT.height}" role="img" aria-label="X-Rate-Limit-Remaining and 429 responses over time">${axes.join('')}${parts.join('')}</svg>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d1d1f;max-width:60rem}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}
.ok{color:#1a7f37}.fail{color:#cf222e;font-weight:600}.unchecked{color:#6e7781;font-style:italic}.verdict{font-size:1.2rem}
svg text{font-size:11px;fill:#555}svg .axis{stroke:#888}svg .remaining{fill:none;stroke:#0969da;stroke-width:2}
svg .band{fill:#0969da;opacity:.15}svg .refused{fill:#cf222e;opacity:.7}.legend span{margin-right:1.2rem}`;

const SHOWN_METRICS = ['http_reqs', 'http_req_duration', 'http_req_failed', 'iterations', 'dropped_iterations', 'checks'];

/** A self-contained page (inline CSS and SVG, no script, no external resources). */
export function htmlSummary(report: Report): string {
  const status = (state: LineState, reportedOnly = false) =>
    state === 'not checked'
      ? '<td class="unchecked">not checked</td>'
      : state === 'ok' || reportedOnly
        ? `<td class="ok">${state === 'ok' ? 'pass' : 'deviation'}</td>`
        : '<td class="fail">FAIL</td>';
  const rows = (cells: string[][]) => cells.map((row) => `<tr>${row.join('')}</tr>`).join('\n');
  const td = (text: string) => `<td>${escapeHtml(text)}</td>`;
  const sections: string[] = [];
  sections.push(
    `<p class="verdict ${report.ok ? 'ok' : 'fail'}">${report.ok ? 'Passed' : 'Failed'}${report.notice === undefined ? '' : `: ${escapeHtml(report.notice)}`}</p>`,
    `<p>${report.target ? `Target ${escapeHtml(report.target)}. ` : ''}${report.durationMs === undefined ? '' : `Ran ${escapeHtml((report.durationMs / 1000).toFixed(1))} s. `}${report.generatedAt ? `Generated ${escapeHtml(report.generatedAt)}.` : ''}</p>`,
  );
  if (report.plot && report.plotBucketMs !== undefined) {
    sections.push(
      '<h2>X-Rate-Limit-Remaining and 429s over time</h2>',
      svgPlot(report.plot, report.plotBucketMs),
      '<p class="legend"><span style="color:#0969da">━ lowest Remaining in the bucket (band: lowest to highest)</span><span style="color:#cf222e">▮ 429 responses in the bucket</span></p>',
    );
  }
  if (report.rules.length > 0) {
    sections.push(
      '<h2>Rules</h2><table><tr><th></th><th>Rule</th><th>Judged</th><th>Broken</th></tr>',
      rows(
        report.rules.map((r) => [
          status(r.state, r.reportedOnly),
          `<td><code>${escapeHtml(r.rule)}</code>: ${escapeHtml(r.sentence)}${r.reason === undefined ? '' : ` <span class="unchecked">(not checked: ${escapeHtml(r.reason)})</span>`}</td>`,
          td(String(r.judged)),
          td(`${r.count}${r.count > 0 && r.reportedOnly ? ' (platform deviation)' : ''}`),
        ]),
      ),
      '</table>',
    );
  }
  sections.push(
    '<h2>Thresholds</h2><table><tr><th></th><th>Metric</th><th>Expected</th><th>Got</th></tr>',
    rows(
      report.thresholds
        .filter((t) => t.metric.indexOf('{rule:') < 0)
        .map((t) => [
          status(t.state),
          td(t.metric),
          td(t.expression),
          td(t.state === 'not checked' ? `not checked: ${t.reason ?? NOT_EXERCISED}` : formatNumber(t.value)),
        ]),
    ),
    '</table>',
  );
  if (report.checks.length > 0) {
    sections.push(
      '<h2>Checks</h2><table><tr><th></th><th>Check</th><th>Passed</th><th>Failed</th></tr>',
      rows(report.checks.map((c) => [status(c.state), td(c.name), td(String(c.passes)), td(String(c.fails))])),
      '</table>',
    );
  }
  const shown = Object.keys(report.metrics).filter((name) => SHOWN_METRICS.includes(name) || (name.startsWith('lp_') && name.indexOf('{') < 0));
  sections.push(
    '<h2>Metrics</h2><table><tr><th>Metric</th><th>Values</th></tr>',
    rows(
      shown.map((name) => {
        const values = report.metrics[name]?.values ?? {};
        return [
          td(name),
          td(
            Object.keys(values)
              .map((key) => `${key}=${formatNumber(values[key])}`)
              .join('  '),
          ),
        ];
      }),
    ),
    '</table>',
  );
  const title = `load/${report.script}: ${report.ok ? 'passed' : 'failed'}`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>\n<body><h1>${escapeHtml(`Load test load/${report.script}`)}</h1>\n${sections.join('\n')}\n</body></html>\n`;
}

/** handleSummary's return value: the three report files and the console text, all redacted. */
export function summaryFiles(data: K6SummaryData, options: SummaryOptions): Record<string, string> {
  const report = buildReport(data, options);
  const dir = (options.dir ?? 'reports/load').replace(/\/+$/, '');
  // Each secret as written, as escaped for XML/HTML and as escaped inside a JSON string.
  const secrets: string[] = [];
  for (const secret of [...(options.secrets ?? []), ...collectSecrets(data.setup_data)])
    secrets.push(secret, escapeXml(secret), JSON.stringify(secret).slice(1, -1));
  const base = `${dir}/${options.script}`;
  return {
    [`${base}.junit.xml`]: redact(junitXml(report), secrets),
    [`${base}.summary.json`]: redact(jsonSummary(report), secrets),
    [`${base}.summary.html`]: redact(htmlSummary(report), secrets),
    stdout: redact(textSummary(report), secrets),
  };
}
