/**
 * The rule catalogue as people read it: `renderRulesMarkdown` (docs/rules.md, `npm run docs`), `renderRunText` (the end of a run's terminal output) and
 * `renderRunHtml` (the page beside the HTML report), the last two as lines of common/report.ts, as k6's reports are.
 */
import { RULE_AREAS, RULES } from '../../contracts/rules/index.ts';
import { escapeHtml, htmlPage, htmlTable, lineText, linesTable, type ReportLine } from '../../common/report.ts';
import { NEEDS } from '../verdict/needs.ts';
import { byArea, countsLine, type Deviation, type RuleCoverage } from './coverage.ts';

/** A rule's line: a broken one says why (its first failure message) and which tests failed; the others list theirs (skip sentences, deviations). */
function lineOf(item: RuleCoverage): ReportLine {
  const rule = RULES[item.id];
  const name = `${item.id} (${rule.level}): ${rule.statement}`;
  if (item.state === 'no test') return { name, state: 'not checked', detail: 'no test states it' };
  if (item.state !== 'broken') return { name, state: item.state === 'held' ? 'ok' : item.state, detail: item.why.join('\n') };
  const why = item.firstFailure?.replace(`${item.id} (${rule.level}): `, '');
  return { name, state: 'broken', detail: `${why === undefined ? '' : `${why}\n`}failing tests: ${item.why.join(' | ')}` };
}

/** What a run checked and what it did not, and why, per rule: the last block of a run's output. */
export function renderRunText(items: readonly RuleCoverage[]): string {
  const lines = [`Rules of the API document: ${countsLine(items)}`];
  for (const [area, list] of byArea(items)) lines.push(`  ${RULE_AREAS[area]}`, ...list.map((item) => `    ${lineText(lineOf(item))}`));
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

/** A self-contained page: `title`, the `target` under it, the run's verdict per rule (a broken rule with why), the `deviations` in a section of their own. */
export function renderRunHtml(items: readonly RuleCoverage[], page: { title: string; target?: string; deviations?: readonly Deviation[] }): string {
  const { title, target, deviations = [] } = page;
  const td = (text: string) => `<td>${escapeHtml(text)}</td>`;
  const deviationRows = deviations.map((d) => [`<td><code>${escapeHtml(d.rule)}</code></td>`, td(d.message), td(d.test)]);
  return htmlPage(
    title,
    `<h1>${escapeHtml(title)}</h1>${target === undefined ? '' : `<h2>Target</h2><p>${escapeHtml(target)}</p>`}` +
      `<h2>Rules</h2><p>${escapeHtml(countsLine(items))}. <a href="#deviations">${deviations.length} platform deviations</a> below. <a href="index.html">The test report</a>.</p>` +
      `${linesTable(byArea(items).map(([area, list]) => [RULE_AREAS[area], list.map(lineOf)]))}<h2 id="deviations">Platform deviations</h2>` +
      (deviations.length === 0
        ? '<p>None.</p>'
        : `<p>Reported, not failed (LP_STRICT=1 fails them): where the target differs from the real platform’s documented choice or the mock’s stricter one, on a point the document leaves open.</p>${htmlTable(['rule', 'what deviated', 'test'], deviationRows)}`),
  );
}
