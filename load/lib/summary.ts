/**
 * handleSummary: from k6's end-of-test data to a JUnit XML file, a JSON file, an HTML page and a short text for stdout (common/report.ts's renderers).
 * k6 hands it aggregates only: which rule broke and how often each was judged arrive as thresholded submetrics `<findings metric>{rule:<id>}` and
 * `lp_rules_judged{rule:<id>}`, the probe's plot as `lp_plot_remaining{bucket:NN}` and `lp_plot_429{bucket:NN}`. A line is ok (exercised, held), broken or
 * not checked (nothing exercised it); a run whose key was refused or that exercised no rule never passes. `setup_data` (it holds the token) is never
 * written, and every known secret is redacted.
 */
import { Redactor } from '../../util/redact.ts';
import { escapeHtml, escapeXml, htmlPage, htmlTable, type JUnitCase, junitXml, lineText, linesTable, type ReportLine } from '../../common/report.ts';
import { RULES, type RuleId } from '../../contracts/rules/index.ts';
import type { LoadEnv } from './env.ts';
import { METRICS } from './metrics.ts';

export interface K6MetricSummary {
  readonly type: 'counter' | 'gauge' | 'rate' | 'trend';
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
  /** The counter whose `{rule:<id>}` submetrics count broken rules, and the rules judged; a broken platform rule fails only when `strict`. */
  readonly rules?: {
    readonly metric: string;
    readonly ids: readonly RuleId[];
    readonly strict?: boolean;
    /** Why a rule is not judged in this run's configuration; default: no request exercised it. */
    readonly notChecked?: Partial<Record<RuleId, string>>;
  };
  /** Bucket length of the probe's plot; no plot when absent. */
  readonly plotBucketMs?: number;
}

/** What the reports take of the settings: where they go (default `reports/load`), the target they name, the secret they never show. */
export type SummaryEnv = Pick<LoadEnv, 'reportDir' | 'baseUrl' | 'clientSecret'>;

/** A rule (its id and statement), a threshold (its metric and expression) or a check (its group and name). */
type Line = ReportLine & { readonly kind: 'rules' | 'thresholds' | 'checks' };

type Report = ReturnType<typeof buildReport>;

/** Every metric but the plot's per-bucket submetrics. */
const isTabled = (name: string) => !name.startsWith(`${METRICS.plotRemaining}{`) && !name.startsWith(`${METRICS.plotRefused}{`);

/** The name and tags of a submetric key `metric{tag:value,...}`. */
export function parseMetricKey(key: string): { metric: string; tags: Record<string, string> } {
  const [, metric, inner] = /^([^{]*)\{(.*)\}$/.exec(key) ?? [];
  const tags: Record<string, string> = {};
  for (const part of inner?.split(',') ?? []) {
    const colon = part.indexOf(':');
    if (colon > 0) tags[part.slice(0, colon).trim()] = part.slice(colon + 1).trim();
  }
  return { metric: metric ?? key, tags };
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

function checksOf(group: K6Group | undefined): Line[] {
  if (!group) return [];
  const path = group.path ?? group.name;
  const lines = group.checks.map(({ name, passes, fails }): Line => {
    const line = { kind: 'checks', name: path !== '' && path !== '::' ? `${path} › ${name}` : name } as const;
    if (fails > 0) return { ...line, state: 'broken', detail: `${fails} of ${passes + fails} failed` };
    return passes > 0 ? { ...line, state: 'ok', detail: `${passes} passed` } : { ...line, state: 'not checked', detail: NOT_EXERCISED };
  });
  return [...lines, ...group.groups.flatMap((child) => checksOf(child))];
}

/** A run whose key the token endpoint refused: the sentence names the settings, never the service. */
export const KEY_REFUSED =
  'the key did not work: the token endpoint refused LP_CLIENT_ID / LP_CLIENT_SECRET (or a scope of LP_SCOPES), so no request exercised any rule';
export const KEY_REFUSED_LINE = 'the key did not work (LP_CLIENT_ID / LP_CLIENT_SECRET), so no request exercised it';
const NOT_EXERCISED = 'no request exercised it';
/** k6 1.5+ with --new-machine-readable-summary hands handleSummary another shape, without thresholds or per-rule counts. */
const NEW_SUMMARY_LINE = "not read: k6's new machine-readable summary carries no per-rule counts";
export const NEW_SUMMARY_SHAPE =
  'k6 handed handleSummary its new machine-readable summary (--new-machine-readable-summary or K6_NEW_MACHINE_READABLE_SUMMARY), which carries no thresholds, so these reports cannot say which rules held: run without it (k6 exit code still reports the thresholds)';

/** The plot's points in bucket order (a bucket has both submetrics: their thresholds are set together); Remaining's min and max undefined where none came. */
export function plotSeries(metrics: Readonly<Record<string, K6MetricSummary>>) {
  const points = Object.keys(metrics).flatMap((key) => {
    const { metric, tags } = parseMetricKey(key);
    if (metric !== METRICS.plotRefused || tags.bucket === undefined) return [];
    const remaining = metrics[`${METRICS.plotRemaining}{bucket:${tags.bucket}}`]?.values;
    const seen = (remaining?.count ?? 1) > 0 ? remaining : undefined;
    return [{ bucket: Number(tags.bucket), remainingMin: seen?.min, remainingMax: seen?.max, refused: metrics[key]?.values.count ?? 0 }];
  });
  return points.sort((a, b) => a.bucket - b.bucket);
}

/** Reads k6's summary data into the report every output is written from (the JSON file is this). */
export function buildReport(data: K6SummaryData, options: SummaryOptions, env?: SummaryEnv) {
  // The classic shape keys its metrics by name; the new one lists them under `results`.
  const keyed: unknown = (data as { metrics?: unknown }).metrics;
  const classic = typeof keyed === 'object' && keyed !== null && !Array.isArray(keyed);
  if (!classic) data = { metrics: {} };
  const keys = Object.keys(data.metrics).sort().filter(isTabled);
  const metrics = Object.fromEntries(keys.map((key) => [key, { type: data.metrics[key]?.type ?? '', values: { ...data.metrics[key]?.values } }]));
  const given = options.rules;
  const countOf = (metric: string | undefined, rule: RuleId) => data.metrics[`${metric}{rule:${rule}}`]?.values.count ?? 0;
  const keyRefused = (data.metrics[METRICS.keyRefused]?.values.count ?? 0) > 0;
  const rules = (given?.ids ?? []).map((id): Line => {
    const count = countOf(given?.metric, id);
    // A finding is a judgement even where the judged count went missing.
    const times = Math.max(countOf(METRICS.rulesJudged, id), count);
    const name = `${id}: ${RULES[id].statement}`;
    const broken = `broken ${count} time(s) in ${times} judged; expected never`;
    if (count > 0 && RULES[id].level === 'platform' && given?.strict !== true)
      return { kind: 'rules', name, state: 'deviates', detail: `platform deviation: ${broken} (fails only with LP_STRICT=1)` };
    if (count > 0) return { kind: 'rules', name, state: 'broken', detail: broken };
    if (times > 0) return { kind: 'rules', name, state: 'ok', detail: `held in ${times} judged` };
    const why = !classic ? NEW_SUMMARY_LINE : keyRefused ? KEY_REFUSED_LINE : (given?.notChecked?.[id] ?? NOT_EXERCISED);
    return { kind: 'rules', name, state: 'not checked', detail: why };
  });
  const nothingJudged = rules.length > 0 && rules.every((r) => r.state === 'not checked');
  const whyNothing = !classic ? NEW_SUMMARY_SHAPE : keyRefused ? KEY_REFUSED : nothingJudged ? 'no request exercised any rule: nothing was checked' : undefined;
  const thresholds: Line[] = [];
  let thresholdsOk = true;
  for (const key of keys) {
    const metric = data.metrics[key];
    const { metric: name, tags } = parseMetricKey(key);
    // The findings counter's total says nothing when no rule was judged.
    const unjudged = name === given?.metric ? whyNothing : undefined;
    for (const [expression, { ok }] of Object.entries(metric?.thresholds ?? {})) {
      thresholdsOk &&= ok;
      // Thresholds on a rule's submetric are reported as that rule.
      if (!metric || tags.rule !== undefined) continue;
      // After a refused key even a failed threshold says nothing of the service: the run fails on the key.
      const reason = keyRefused ? KEY_REFUSED_LINE : ok ? (unjudged ?? (hasNoSamples(metric) ? 'no samples' : undefined)) : undefined;
      const got = `got ${formatNumber(thresholdValue(metric, expression))}`;
      const [state, detail] =
        reason !== undefined ? (['not checked', reason] as const) : ok ? (['ok', got] as const) : (['broken', `expected ${expression}, ${got}`] as const);
      thresholds.push({ kind: 'thresholds', name: `${key} ${expression}`, state, detail });
    }
  }
  const lines = [...rules, ...thresholds, ...checksOf(data.root_group)];
  return {
    script: options.script,
    ok: whyNothing === undefined && thresholdsOk && lines.every((l) => l.state !== 'broken'),
    notice: whyNothing,
    durationMs: data.state?.testRunDurationMs,
    target: env?.baseUrl,
    generatedAt: new Date().toISOString(),
    lines,
    metrics,
    plot: options.plotBucketMs === undefined ? undefined : plotSeries(data.metrics),
    plotBucketMs: options.plotBucketMs,
  };
}

function formatNumber(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? '-' : Number.isInteger(value) ? String(value) : value.toFixed(2);
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

/** JUnit XML: one testcase per rule, threshold and check; a run that checked nothing fails as a run (skips alone would read as green). */
function junit(report: Report): string {
  const suite = `load.${report.script}`;
  const cases = report.lines.map(({ kind, name, state, detail }): JUnitCase => {
    const c = { classname: `${suite}.${kind}`, name };
    if (state === 'broken') return { ...c, failures: [{ type: kind, message: detail }] };
    if (state === 'not checked') return { ...c, skipped: `not checked: ${detail}` };
    return state === 'deviates' ? { ...c, out: detail } : c;
  });
  if (report.notice !== undefined)
    cases.unshift({ classname: `${suite}.run`, name: 'the run exercised the service', failures: [{ type: 'run', message: report.notice }] });
  return junitXml(suite, [{ name: suite, cases }], (report.durationMs ?? 0) / 1000);
}

/** A few lines for the console: the verdict, then every line in one of its states, with what it says. */
function text(report: Report): string {
  const seconds = report.durationMs === undefined ? '' : ` in ${(report.durationMs / 1000).toFixed(1)} s`;
  const verdict = `load/${report.script}: ${report.ok ? 'PASSED' : 'FAILED'}${seconds}${report.notice === undefined ? '' : `: ${report.notice}`}`;
  return `${[verdict, ...report.lines.map((line) => `  ${lineText(line)}`)].join('\n')}\n`;
}

/** An inline SVG: X-Rate-Limit-Remaining (band from min to max, line at min) and 429s (bars, right axis) per bucket. */
export function svgPlot(points: ReturnType<typeof plotSeries>, bucketMs: number): string {
  const [width, height, left, right, top, bottom] = [760, 260, 52, 708, 20, 224];
  const buckets = (points[points.length - 1]?.bucket ?? 0) + 1;
  const step = (right - left) / buckets;
  const x = (bucket: number) => left + bucket * step;
  const maxRemaining = Math.max(1, ...points.map((p) => p.remainingMax ?? 0));
  const maxRefused = Math.max(1, ...points.map((p) => p.refused));
  const y = (value: number, max: number) => bottom - (value / max) * (bottom - top);
  const rect = (kind: string, x0: number, y0: number, w: number, y1: number, title = '') =>
    `<rect class="${kind}" x="${x0.toFixed(1)}" y="${y0.toFixed(1)}" width="${w.toFixed(1)}" height="${(y1 - y0).toFixed(1)}">${title}</rect>`;
  const parts: string[] = [];
  const line: string[] = [];
  for (const p of points) {
    const title = `<title>${p.refused} × 429 at ${((p.bucket * bucketMs) / 1000).toFixed(0)} s</title>`;
    if (p.refused > 0) parts.push(rect('refused', x(p.bucket) + step * 0.15, y(p.refused, maxRefused), step * 0.7, bottom, title));
    if (p.remainingMin === undefined) continue;
    if ((p.remainingMax ?? 0) > p.remainingMin)
      parts.push(rect('band', x(p.bucket), y(p.remainingMax ?? 0, maxRemaining), step, y(p.remainingMin, maxRemaining)));
    line.push(`${(x(p.bucket) + step / 2).toFixed(1)},${y(p.remainingMin, maxRemaining).toFixed(1)}`);
  }
  if (line.length > 0) parts.push(`<polyline class="remaining" points="${line.join(' ')}"/>`);
  const text = (tx: number, ty: number, content: string | number, attributes = '') => `<text x="${tx}" y="${ty}"${attributes}>${content}</text>`;
  const [end, middle] = [' text-anchor="end"', ' text-anchor="middle"'];
  const rotated = (tx: number, degrees: number) => ` transform="rotate(${degrees} ${tx} ${(top + bottom) / 2})"${middle}`;
  const axes = [
    `<path class="axis" d="M${left} ${top}V${bottom}H${right}V${top}"/>`,
    text(left - 6, top + 4, maxRemaining, end),
    text(left - 6, bottom, 0, end),
    text(right + 6, top + 4, maxRefused),
    text(right + 6, bottom, 0),
    text(left, bottom + 16, '0 s'),
    text(right, bottom + 16, `${((buckets * bucketMs) / 1000).toFixed(0)} s`, end),
    text((left + right) / 2, bottom + 30, `time since the scenario started (${(bucketMs / 1000).toFixed(0)} s per bucket)`, middle),
    text(12, (top + bottom) / 2, 'X-Rate-Limit-Remaining', rotated(12, -90)),
    text(width - 8, (top + bottom) / 2, '429 responses', rotated(width - 8, 90)),
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="X-Rate-Limit-Remaining and 429 responses over time">${axes.join('')}${parts.join('')}</svg>`;
}

const STYLE = `.verdict{font-size:1.2rem}.verdict.fail{color:#cf222e}svg text{font-size:11px;fill:#555}svg .axis{stroke:#888;fill:none}svg .remaining{fill:none;stroke:#0969da;stroke-width:2}
svg .band{fill:#0969da;opacity:.15}svg .refused{fill:#cf222e;opacity:.7}.legend span{margin-right:1.2rem}`;

const SHOWN_METRICS = ['http_reqs', 'http_req_duration', 'http_req_failed', 'iterations', 'dropped_iterations', 'checks'];

/** A self-contained page: the verdict, the probe's plot, the lines by kind, the main metrics. */
function html(report: Report): string {
  const td = (text: string) => `<td>${escapeHtml(text)}</td>`;
  const verdict = `${report.ok ? 'Passed' : 'Failed'}${report.notice === undefined ? '' : `: ${report.notice}`}`;
  const ran = report.durationMs === undefined ? undefined : `${(report.durationMs / 1000).toFixed(1)} s`;
  const about = [report.target && `Target ${report.target}.`, ran && `Ran ${ran}.`, report.generatedAt && `Generated ${report.generatedAt}.`];
  const sections = [
    `<p class="verdict ${report.ok ? 'ok' : 'fail'}">${escapeHtml(verdict)}</p>`,
    `<p>${escapeHtml(about.filter((sentence) => sentence).join(' '))}</p>`,
  ];
  if (report.plot && report.plotBucketMs !== undefined)
    sections.push(
      '<h2>X-Rate-Limit-Remaining and 429s over time</h2>',
      svgPlot(report.plot, report.plotBucketMs),
      '<p class="legend"><span style="color:#0969da">━ lowest Remaining in the bucket (band: lowest to highest)</span><span style="color:#cf222e">▮ 429 responses in the bucket</span></p>',
    );
  const kinds = (['rules', 'thresholds', 'checks'] as const).map((kind) => [kind, report.lines.filter((l) => l.kind === kind)] as const);
  sections.push('<h2>What the run checked</h2>', linesTable(kinds.filter(([, lines]) => lines.length > 0)));
  const shown = Object.keys(report.metrics).filter((name) => SHOWN_METRICS.includes(name) || (name.startsWith('lp_') && name.indexOf('{') < 0));
  const values = (name: string) => Object.entries(report.metrics[name]?.values ?? {}).map(([key, value]) => `${key}=${formatNumber(value)}`);
  const rows = shown.map((name) => [td(name), td(values(name).join('  '))]);
  sections.push('<h2>Metrics</h2>', htmlTable(['Metric', 'Values'], rows));
  const title = `load/${report.script}: ${report.ok ? 'passed' : 'failed'}`;
  return htmlPage(title, `<h1>${escapeHtml(`Load test load/${report.script}`)}</h1>\n${sections.join('\n')}\n`, STYLE);
}

/** handleSummary's return value: the three report files and the console text, all redacted. */
export function summaryFiles(data: K6SummaryData, options: SummaryOptions, env?: SummaryEnv): Record<string, string> {
  const report = buildReport(data, options, env);
  const base = `${(env?.reportDir ?? 'reports/load').replace(/\/+$/, '')}/${options.script}`;
  // Each secret as written, as escaped for XML/HTML and as escaped inside a JSON string.
  const secrets = [...(env ? [env.clientSecret] : []), ...collectSecrets(data.setup_data)];
  const redactor = new Redactor(...secrets.flatMap((s) => [s, escapeXml(s), JSON.stringify(s).slice(1, -1)]));
  return {
    [`${base}.junit.xml`]: redactor.redact(junit(report)),
    [`${base}.summary.json`]: redactor.redact(`${JSON.stringify(report, null, 2)}\n`),
    [`${base}.summary.html`]: redactor.redact(html(report)),
    stdout: redactor.redact(text(report)),
  };
}
