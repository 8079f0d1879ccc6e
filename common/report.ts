/**
 * The one set of renderers of what a run found: a finding's one line of text, JUnit XML and HTML pages, with the project's one XML escaper and one HTML
 * escaper. The Playwright summary reporter (harness/report/), k6's handleSummary (load/lib/summary.ts), `npm test`'s index page and the mock's
 * `GET /_mock/findings` all write through it. k6-safe: no Node API, ES2017.
 */
import { type Finding, findingText } from '../contracts/rules/finding.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** XML text and attribute values; characters XML 1.0 forbids even escaped (control characters but tab, LF, CR) are dropped. */
export function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters to drop
  return escapeHtml(text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, ''));
}

/** A finding on one line: `<rule> (<level>): expected …, got … (<request>)`. */
export function findingLine(f: Finding): string {
  return `${f.rule} (${f.level}): ${findingText(f)}`;
}

/** One testcase: passed unless it has failures or a skip reason; `out` is a note beside a pass. */
export interface JUnitCase {
  readonly classname: string;
  readonly name: string;
  readonly failures?: readonly { readonly type: string; readonly message: string; readonly text?: string }[];
  readonly skipped?: string;
  readonly out?: string;
}

/** A JUnit XML file: `<testsuites>` named `name`, its counts added up from the suites'. */
export function junitXml(name: string, suites: readonly { readonly name: string; readonly cases: readonly JUnitCase[] }[], seconds = 0): string {
  const failing = (c: JUnitCase) => (c.failures ?? []).length > 0;
  const counted = (cases: readonly JUnitCase[]) => ({
    tests: cases.length,
    failures: cases.filter(failing).length,
    skipped: cases.filter((c) => !failing(c) && c.skipped !== undefined).length,
  });
  const blocks = suites.map((suite) => {
    const cases = suite.cases.map((c) => {
      const failures = c.failures ?? [];
      const body = [
        ...failures.map((f) => `<failure message="${escapeXml(f.message)}" type="${escapeXml(f.type)}">${escapeXml(f.text ?? f.message)}</failure>`),
        ...(failures.length === 0 && c.skipped !== undefined ? [`<skipped message="${escapeXml(c.skipped)}"/>`] : []),
        ...(c.out === undefined ? [] : [`<system-out>${escapeXml(c.out)}</system-out>`]),
      ];
      return `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="0">${body.join('')}</testcase>`;
    });
    return `  <testsuite ${attributes(suite.name, counted(suite.cases), seconds)}>\n${cases.map((c) => `${c}\n`).join('')}  </testsuite>\n`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attributes(name, counted(suites.flatMap((s) => s.cases)), seconds)}>\n${blocks.join('')}</testsuites>\n`;
}

function attributes(name: string, c: { tests: number; failures: number; skipped: number }, seconds: number): string {
  return `name="${escapeXml(name)}" tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}" time="${seconds.toFixed(3)}"`;
}

/**
 * A line of a run's report (a rule, a threshold, a check): its state, and what it says: what held, how it broke, why it was not checked. A deviation is a
 * broken platform rule, reported without failing the run.
 */
export type ReportLine = { readonly name: string; readonly state: 'ok' | 'broken' | 'deviates' | 'not checked'; readonly detail: string };

const MARK = { ok: 'ok  ', broken: 'FAIL', deviates: 'warn', 'not checked': '--  ' } as const;
const CELL = { ok: 'pass', broken: 'FAIL', deviates: 'deviation', 'not checked': 'not checked' } as const;
/** Characters of what a line says on the terminal: a rule's sentence and most requests fit. */
const TEXT_COLUMNS = 220;

/** A line on the terminal: `FAIL <name> (<what it says, on one line>)`. */
export function lineText({ name, state, detail }: ReportLine): string {
  const flat = `${state === 'not checked' ? 'not checked: ' : ''}${detail}`.replace(/\s+/g, ' ').trim();
  return `${MARK[state]} ${name}${flat === '' ? '' : ` (${flat.length > TEXT_COLUMNS ? `${flat.slice(0, TEXT_COLUMNS - 1)}…` : flat})`}`;
}

/** Lines as one table, a heading row before each group: state, name, what it says (kept as written, lines and all). */
export function linesTable(groups: readonly (readonly [string, readonly ReportLine[]])[]): string {
  const rows = groups.flatMap(([heading, lines]) => [
    [`<th colspan="3">${escapeHtml(heading)}</th>`],
    ...lines.map((l) => [
      `<td class="${l.state.replace(' ', '-')}">${CELL[l.state]}</td>`,
      `<td>${escapeHtml(l.name)}</td>`,
      `<td class="detail">${escapeHtml(l.detail)}</td>`,
    ]),
  ]);
  return htmlTable([], rows);
}

/** The style of every page; a page adds its own after it. */
const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d1d1f;max-width:72rem}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}td.detail{white-space:pre-wrap}
.ok{color:#1a7f37}.broken{color:#cf222e;font-weight:600}.deviates{color:#9a6700}.not-checked{color:#6e7781;font-style:italic}`;

/** A table: a header row and rows of cells already rendered as HTML (`<td>` or `<th>`). */
export function htmlTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const header = head.length === 0 ? '' : `<tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  return `<table>${header}\n${rows.map((row) => `<tr>${row.join('')}</tr>`).join('\n')}</table>`;
}

/** A self-contained page: inline CSS, no script, no external resource. */
export function htmlPage(title: string, body: string, style = ''): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}${style}</style></head>\n<body>${body}</body></html>\n`;
}
