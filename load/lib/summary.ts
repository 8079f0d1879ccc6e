/**
 * handleSummary: from k6's end-of-test data to a JUnit XML file (for CI test reports), a JSON file (for
 * tools), a self-contained HTML page (for people) and a short text for stdout, all written through the
 * project's renderers (contracts/report.ts).
 *
 * k6 hands handleSummary aggregates only. What the reports need beyond k6's own metrics arrives as
 * thresholded submetrics (load/lib/plans/): `<violations>{rule:<rule id>}` tells which rule broke,
 * `lp_rules_judged{rule:<rule id>}` how often it was judged at all, `lp_plot_remaining{bucket:NN}` /
 * `lp_plot_429{bucket:NN}` carry the probe's plot, one bucket each.
 *
 * Every line has one of three states: ok (exercised, held), broken (exercised, failed) and not checked
 * (no request exercised it), with the reason. A rule nothing exercised is never called ok, and a run
 * whose key was refused (`lp_key_refused`) or that exercised no rule at all never passes.
 *
 * Nothing from `setup_data` is written (it holds the access token), and every known secret is replaced
 * by [redacted] in every output as a last line of defence.
 */
import { Redactor } from '../../contracts/redact.ts';
import { escapeHtml, escapeXml, htmlPage, htmlTable, type JUnitCase, junitXml } from '../../contracts/report.ts';
import { type Rule, RULES, type RuleId } from '../../contracts/rules/index.ts';
import { METRICS } from './metrics.ts';

export interface K6MetricSummary {
  readonly type: 'counter' | 'gauge' | 'rate' | 'trend';
  readonly contains?: 'default' | 'time' | 'data';
  readonly values: Readonly<Record<string, number>>;
  readonly thresholds?: Readonly<Record<string, { readonly ok: boolean }>>;
}

interface K6Group {
  readonly name: string;
  readonly path?: string;
  readonly groups: readonly K6Group[];
  readonly checks: readonly { readonly name: string; readonly passes: number; readonly fails: number }[];
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
   * The counter whose `{rule:<id>}` submetrics count broken rules, and the rules the script judges; each
   * is named by its statement in contracts/rules. A broken platform rule is a deviation, reported without
   * failing the run unless `strict` (LP_STRICT=1; default false).
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

const isPlotMetric = (name: string) => name.startsWith(`${METRICS.plotRemaining}{`) || name.startsWith(`${METRICS.plotRefused}{`);

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

/** A Rate or Trend k6 saw no sample of (a Counter's zero cannot tell). */
function hasNoSamples({ type, values }: K6MetricSummary): boolean {
  return type === 'rate' ? values.passes !== undefined && values.passes + (values.fails ?? 0) === 0 : type === 'trend' && values.count === 0;
}

/** The value a threshold expression like `p(95)<500` or `count==0` reads; none for a metric without samples. */
function thresholdValue(metric: K6MetricSummary, expression: string): number | undefined {
  const aggregate = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*[<>=!]/.exec(expression)?.[1];
  return aggregate === undefined || hasNoSamples(metric) ? undefined : metric.values[aggregate];
}

function checksOf(group: K6Group | undefined, out: CheckResult[] = []): CheckResult[] {
  if (!group) return out;
  for (const { name, passes, fails } of group.checks) out.push({ name, group: group.path ?? group.name, passes, fails, state: lineState(passes, fails) });
  for (const child of group.groups) checksOf(child, out);
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
    const { metric, tags } = parseMetricKey(key);
    const bucket = Number(tags.bucket);
    const summary = metrics[key];
    if (!isPlotMetric(key) || !Number.isInteger(bucket) || !summary) continue;
    const point = byBucket.get(bucket) ?? { refused: 0 };
    if (metric === METRICS.plotRemaining && (summary.values.count ?? 1) > 0 && summary.values.min !== undefined) {
      point.remainingMin = summary.values.min;
      point.remainingMax = summary.values.max;
    }
    if (metric === METRICS.plotRefused) point.refused = summary.values.count ?? 0;
    byBucket.set(bucket, point);
  }
  return [...byBucket.entries()]
    .sort(([a], [b]) => a - b)
    .map(([bucket, p]) => ({ bucket, remainingMin: p.remainingMin, remainingMax: p.remainingMax, refused: p.refused }));
}

/** Reads k6's summary data into the report every output is written from. */
export function buildReport(data: K6SummaryData, options: SummaryOptions): Report {
  const metrics: Record<string, { type: string; values: Record<string, number> }> = {};
  const counts: Record<string, number> = {};
  const judged: Record<string, number> = {};
  const keys = Object.keys(data.metrics)
    .sort()
    .filter((key) => !isPlotMetric(key));
  for (const key of keys) {
    const metric = data.metrics[key];
    if (!metric) continue;
    metrics[key] = { type: metric.type, values: { ...metric.values } };
    const { metric: name, tags } = parseMetricKey(key);
    if (tags.rule === undefined) continue;
    if (name === options.rules?.metric) counts[tags.rule] = metric.values.count ?? 0;
    if (name === METRICS.rulesJudged) judged[tags.rule] = metric.values.count ?? 0;
  }
  const keyRefused = (data.metrics[METRICS.keyRefused]?.values.count ?? 0) > 0;
  const given = options.rules;
  const rules = (given?.ids ?? []).map((rule): RuleResult => {
    const count = counts[rule] ?? 0;
    // A finding is a judgement even where the judged count went missing.
    const times = Math.max(judged[rule] ?? 0, count);
    const state = lineState(times - count, count);
    const reason = state !== 'not checked' ? undefined : keyRefused ? KEY_REFUSED_LINE : (given?.notChecked?.[rule] ?? NOT_EXERCISED);
    // A tag the registry does not know is shown by its tag, and fails as a contract rule would.
    const known: Rule | undefined = RULES[rule];
    return {
      rule,
      sentence: known?.statement ?? rule,
      count,
      judged: times,
      state,
      ...(reason === undefined ? {} : { reason }),
      reportedOnly: known?.level === 'platform' && given?.strict !== true,
    };
  });
  const nothingJudged = rules.length > 0 && rules.every((r) => r.state === 'not checked');
  const notice = keyRefused ? KEY_REFUSED : nothingJudged ? 'no request exercised any rule: nothing was checked' : undefined;
  const thresholds: ThresholdResult[] = [];
  for (const key of keys) {
    const metric = data.metrics[key];
    // The violations counter's total says nothing when no rule was judged; after a refused key, nothing does.
    const unjudged = keyRefused ? KEY_REFUSED_LINE : parseMetricKey(key).metric === given?.metric ? notice : undefined;
    for (const [expression, threshold] of Object.entries(metric?.thresholds ?? {})) {
      const value = metric && thresholdValue(metric, expression);
      const noSamples = value === undefined && metric && hasNoSamples(metric) ? 'no samples' : undefined;
      // After a refused key even a failed threshold (the refusal itself counted as a failed request, no
      // walk completed) says nothing of the service: the run fails on the key, named in the notice.
      const reason = keyRefused ? KEY_REFUSED_LINE : threshold.ok ? (unjudged ?? noSamples) : undefined;
      const state: LineState = reason !== undefined ? 'not checked' : threshold.ok ? 'ok' : 'broken';
      thresholds.push({ metric: key, expression, ok: threshold.ok, state, ...(reason === undefined ? {} : { reason }), value });
    }
  }
  const checks = checksOf(data.root_group);
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

function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/**
 * One line of every output: a rule, a threshold or a check, in one of four states (a deviation is a
 * broken platform rule reported only), and what it says: why it broke, why it was not checked, or what held.
 */
interface Line {
  readonly kind: 'rules' | 'thresholds' | 'checks';
  readonly name: string;
  readonly state: LineState | 'deviates';
  readonly detail: string;
}

function linesOf(report: Report): Line[] {
  const rules = report.rules.map((r): Line => {
    const broken = `broken ${r.count} time(s) in ${r.judged} judged; expected never`;
    const name = `${r.rule}: ${r.sentence}`;
    if (r.state === 'not checked') return { kind: 'rules', name, state: r.state, detail: r.reason ?? NOT_EXERCISED };
    if (r.state === 'ok') return { kind: 'rules', name, state: r.state, detail: `held in ${r.judged} judged` };
    if (r.reportedOnly) return { kind: 'rules', name, state: 'deviates', detail: `platform deviation: ${broken} (fails only with LP_STRICT=1)` };
    return { kind: 'rules', name, state: r.state, detail: broken };
  });
  // Thresholds on a rule's submetric are reported as that rule above.
  const thresholds = report.thresholds
    .filter((t) => t.metric.indexOf('{rule:') < 0)
    .map((t): Line => {
      const detail = t.state === 'not checked' ? (t.reason ?? NOT_EXERCISED) : `${t.ok ? '' : `expected ${t.expression}, `}got ${formatNumber(t.value)}`;
      return { kind: 'thresholds', name: `${t.metric} ${t.expression}`, state: t.state, detail };
    });
  const checks = report.checks.map((c): Line => ({
    kind: 'checks',
    name: c.group !== '' && c.group !== '::' ? `${c.group} › ${c.name}` : c.name,
    state: c.state,
    detail: c.state === 'not checked' ? NOT_EXERCISED : `${c.fails > 0 ? c.fails : c.passes} of ${c.passes + c.fails} ${c.fails > 0 ? 'failed' : 'passed'}`,
  }));
  return [...rules, ...thresholds, ...checks];
}

/** JUnit XML: one testcase per rule, threshold and check; a run that checked nothing fails as a run (skips alone would read as green). */
function junit(report: Report): string {
  const suite = `load.${report.script}`;
  const cases: JUnitCase[] =
    report.notice === undefined
      ? []
      : [{ classname: `${suite}.run`, name: 'the run exercised the service', failures: [{ type: 'run', message: report.notice }] }];
  for (const { kind, name, state, detail } of linesOf(report)) {
    const c = { classname: `${suite}.${kind}`, name };
    if (state === 'broken') cases.push({ ...c, failures: [{ type: kind, message: detail }] });
    else if (state === 'not checked') cases.push({ ...c, skipped: `not checked: ${detail}` });
    else cases.push(state === 'deviates' ? { ...c, out: detail } : c);
  }
  return junitXml(suite, [{ name: suite, cases }], (report.durationMs ?? 0) / 1000);
}

const MARK = { ok: 'ok  ', broken: 'FAIL', deviates: 'warn', 'not checked': '--  ' } as const;

/** A few lines for the console: the verdict, then every line in one of its states, with what it says. */
function text(report: Report): string {
  const seconds = report.durationMs === undefined ? '' : ` in ${(report.durationMs / 1000).toFixed(1)} s`;
  const lines = [`load/${report.script}: ${report.ok ? 'PASSED' : 'FAILED'}${seconds}${report.notice === undefined ? '' : `: ${report.notice}`}`];
  for (const line of linesOf(report)) lines.push(`  ${MARK[line.state]} ${line.name} (${line.state === 'not checked' ? 'not checked: ' : ''}${line.detail})`);
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
const STATUS = {
  ok: '<td class="ok">pass</td>',
  deviates: '<td class="ok">deviation</td>',
  broken: '<td class="fail">FAIL</td>',
  'not checked': '<td class="unchecked">not checked</td>',
} as const;
const SECTIONS = { rules: 'Rules', thresholds: 'Thresholds', checks: 'Checks' } as const;

/** A self-contained page: the verdict, the probe's plot, a table per kind of line, the main metrics. */
function html(report: Report): string {
  const td = (text: string) => `<td>${escapeHtml(text)}</td>`;
  const verdict = `${report.ok ? 'Passed' : 'Failed'}${report.notice === undefined ? '' : `: ${report.notice}`}`;
  const about = [
    report.target === undefined ? '' : `Target ${report.target}.`,
    report.durationMs === undefined ? '' : `Ran ${(report.durationMs / 1000).toFixed(1)} s.`,
    report.generatedAt === undefined ? '' : `Generated ${report.generatedAt}.`,
  ];
  const sections = [`<p class="verdict ${report.ok ? 'ok' : 'fail'}">${escapeHtml(verdict)}</p>`, `<p>${escapeHtml(about.join(' ').trim())}</p>`];
  if (report.plot && report.plotBucketMs !== undefined) {
    sections.push(
      '<h2>X-Rate-Limit-Remaining and 429s over time</h2>',
      svgPlot(report.plot, report.plotBucketMs),
      '<p class="legend"><span style="color:#0969da">━ lowest Remaining in the bucket (band: lowest to highest)</span><span style="color:#cf222e">▮ 429 responses in the bucket</span></p>',
    );
  }
  const lines = linesOf(report);
  for (const kind of ['rules', 'thresholds', 'checks'] as const) {
    const rows = lines.filter((l) => l.kind === kind).map((l) => [STATUS[l.state], td(l.name), td(l.detail)]);
    if (rows.length > 0) sections.push(`<h2>${SECTIONS[kind]}</h2>`, htmlTable(['', SECTIONS[kind], ''], rows));
  }
  const shown = Object.keys(report.metrics).filter((name) => SHOWN_METRICS.includes(name) || (name.startsWith('lp_') && name.indexOf('{') < 0));
  const values = (name: string) =>
    Object.entries(report.metrics[name]?.values ?? {})
      .map(([key, value]) => `${key}=${formatNumber(value)}`)
      .join('  ');
  sections.push(
    '<h2>Metrics</h2>',
    htmlTable(
      ['Metric', 'Values'],
      shown.map((name) => [td(name), td(values(name))]),
    ),
  );
  const title = `load/${report.script}: ${report.ok ? 'passed' : 'failed'}`;
  return htmlPage(title, `<h1>${escapeHtml(`Load test load/${report.script}`)}</h1>\n${sections.join('\n')}\n`, STYLE);
}

/** handleSummary's return value: the three report files and the console text, all redacted. */
export function summaryFiles(data: K6SummaryData, options: SummaryOptions): Record<string, string> {
  const report = buildReport(data, options);
  const base = `${(options.dir ?? 'reports/load').replace(/\/+$/, '')}/${options.script}`;
  // Each secret as written, as escaped for XML/HTML and as escaped inside a JSON string.
  const redactor = new Redactor();
  for (const secret of [...(options.secrets ?? []), ...collectSecrets(data.setup_data)])
    redactor.add(secret, escapeXml(secret), JSON.stringify(secret).slice(1, -1));
  return {
    [`${base}.junit.xml`]: redactor.redact(junit(report)),
    [`${base}.summary.json`]: redactor.redact(`${JSON.stringify(report, null, 2)}\n`),
    [`${base}.summary.html`]: redactor.redact(html(report)),
    stdout: redactor.redact(text(report)),
  };
}
