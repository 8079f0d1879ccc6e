/**
 * The rule catalogue as people read it: `renderRulesMarkdown` (docs/rules.md, `npm run docs` and
 * `npm run docs`), `renderRunText` (the end of a run's terminal output) and
 * `renderRunHtml` (the page beside the HTML report).
 */
import { RULE_AREAS, RULES } from '../../contracts/rules/index.ts';
import { NEEDS } from '../verdict/needs.ts';
import type { TargetDescription } from './target-description.ts';
import { byArea, countStates, type Deviation, type RuleCoverage } from './coverage.ts';

const MARK = { held: '✓', broken: '✗', deviates: '!', 'not checked': '-', 'no test': '·' } as const;

/** One line of counts: `31 held, 1 broken, 2 deviate, 9 not checked, 1 without a test`. */
export function countsLine(items: readonly RuleCoverage[]): string {
  const c = countStates(items);
  return `${c.held} held, ${c.broken} broken, ${c.deviates} deviate, ${c['not checked']} not checked, ${c['no test']} without a test (of ${items.length} rules)`;
}

/** Characters of a broken rule's message on its terminal line: the rule's sentence and most requests fit. */
const MESSAGE_COLUMNS = 220;

/** A message on one line: its whitespace runs collapsed, cut at `columns` with an ellipsis. */
export function oneLine(text: string, columns: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > columns ? `${flat.slice(0, columns - 1)}…` : flat;
}

/** What a run checked and what it did not, and why, per rule: the last block of a run's output. */
export function renderRunText(items: readonly RuleCoverage[]): string {
  const lines = [`Rules of the API document: ${countsLine(items)}`];
  for (const [area, list] of byArea(items)) {
    lines.push(`  ${RULE_AREAS[area]}`);
    for (const item of list) {
      const why =
        item.state === 'held'
          ? ''
          : item.why.length === 0
            ? ''
            : ` — ${item.why.slice(0, 2).join(' | ')}${item.why.length > 2 ? ` (+${item.why.length - 2})` : ''}`;
      lines.push(`    ${MARK[item.state]} ${item.id} [${RULES[item.id].level}] ${item.state}${why}`);
      if (item.firstFailure !== undefined) lines.push(`        why: ${oneLine(item.firstFailure, MESSAGE_COLUMNS)}`);
    }
  }
  return lines.join('\n');
}

/** docs/rules.md: every rule with its level, the document's words or the platform's note, its tests and their needs. */
export function renderRulesMarkdown(items: readonly RuleCoverage[]): string {
  const out: string[] = [
    '# Rules of the API document',
    '',
    "<!-- Generated from contracts/rules/ and the tests' declarations (`npm run docs`); do not edit. -->",
    '',
    "Every rule the contract suite checks, at one of two levels: **contract** (the API document states it; a broken one fails the run) and **platform** (the document leaves the point open; the real platform's documented choice or the mock's stricter one: a broken one is a *platform deviation*, reported, failing only with `LP_STRICT=1`).",
    '',
    'A test declares the rules it checks and what it needs of the target; a test whose needs are unmet is skipped with a sentence naming the setting, and its rules are then reported as not checked.',
    '',
    '## Needs',
    '',
    '| need | what it takes |',
    '| --- | --- |',
    ...Object.entries(NEEDS).map(([name, info]) => `| \`${name}\` | ${info.doc} |`),
    '',
  ];
  for (const [area, list] of byArea(items)) {
    out.push(`## ${RULE_AREAS[area]}`, '');
    for (const item of list) {
      const rule = RULES[item.id];
      out.push(`### \`${item.id}\` (${rule.level})`, '', rule.statement, '');
      if (rule.level !== 'platform') out.push(`> ${rule.quote}`, '>', `> — ${rule.section}`, '');
      else out.push(`Basis: ${rule.basis === 'mock' ? "the mock's own choice" : "the platform's public documentation"}. ${rule.note}`, '');
      if (item.everyResponse) out.push(`Judged on ${item.everyResponse}.`, '');
      if (item.tests.length === 0 && !item.everyResponse) out.push('**No test states this rule.**', '');
      if (item.tests.length > 0) {
        out.push(`Tests${item.needs.length > 0 ? ` (needs: ${item.needs.map((n) => `\`${n}\``).join(', ')})` : ''}:`, '');
        for (const title of item.tests) out.push(`- ${title.replace(/\|/g, '\\|')}`);
        out.push('');
      }
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A rule's last cell: for a broken rule, why (its first failure message) above the failing tests. */
function whyCell(item: RuleCoverage): string {
  const list = item.why.map((w) => escapeHtml(w)).join('<br>');
  if (item.state !== 'broken') return list;
  const why = item.firstFailure === undefined ? '' : `<pre class="why">${escapeHtml(item.firstFailure)}</pre>`;
  return `${why}<small>failing tests:</small><br>${list}`;
}

export interface RunPage {
  readonly title: string;
  /** What the run was pointed at; named under the title. */
  readonly target?: TargetDescription;
  /** The run's platform deviations, listed in a section of their own. */
  readonly deviations?: readonly Deviation[];
}

/** A self-contained page: the target, the run's verdict per rule (a broken rule with why), the deviations. */
export function renderRunHtml(items: readonly RuleCoverage[], page: RunPage): string {
  const { title, target, deviations = [] } = page;
  const rows = byArea(items)
    .map(
      ([area, list]) =>
        `<tr><th colspan="4">${escapeHtml(RULE_AREAS[area])}</th></tr>` +
        list
          .map(
            (item) =>
              `<tr class="${item.state.replace(' ', '-')}"><td>${MARK[item.state]}</td><td><code>${item.id}</code> <small>${RULES[item.id].level}</small><br>${escapeHtml(RULES[item.id].statement)}</td>` +
              `<td>${item.state}</td><td>${whyCell(item)}</td></tr>`,
          )
          .join(''),
    )
    .join('');
  const targetBlock = target
    ? `<h2>Target</h2><p>${escapeHtml(target.line)}</p><dl>${Object.entries(target.facts)
        .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`)
        .join('')}</dl>`
    : '';
  const deviationBlock =
    deviations.length === 0
      ? '<h2 id="deviations">Platform deviations</h2><p>None.</p>'
      : `<h2 id="deviations">Platform deviations</h2><p>Reported, not failed (LP_STRICT=1 fails them): where the target differs from the real platform’s documented choice or the mock’s stricter one, on a point the document leaves open.</p>` +
        `<table class="deviations"><tr><th>rule</th><th>what deviated</th><th>test</th></tr>${deviations
          .map((d) => `<tr><td><code>${escapeHtml(d.rule)}</code></td><td>${escapeHtml(d.message)}</td><td>${escapeHtml(d.test)}</td></tr>`)
          .join('')}</table>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px 8px;vertical-align:top;text-align:left}
.broken{background:#fdd}.deviates{background:#ffd}.not-checked,.no-test{color:#777}pre.why{white-space:pre-wrap;margin:0 0 4px;font-size:13px}
.deviations code{white-space:nowrap}dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{font-weight:bold}dd{margin:0}</style></head><body>
<h1>${escapeHtml(title)}</h1>${targetBlock}<h2>Rules</h2><p>${escapeHtml(countsLine(items))}. <a href="#deviations">${deviations.length} platform deviations</a> below. <a href="index.html">The test report</a>.</p>
<table>${rows}</table>${deviationBlock}</body></html>\n`;
}
