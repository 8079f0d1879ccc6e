/**
 * Every relative link of README.md and docs/*.md leads to a file of the repository (and to a heading of it, when it names one): the documents must stand on
 * their own, whoever reads them and wherever. They are read on GitHub and in editors, where a broken link is found only by the reader who follows it; this
 * check finds it first: a file that does not exist, or a `#anchor` no heading of the target produces.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../../common/root.ts';

/** Link targets that leave the repository on purpose (web pages, mail) are not checked here. */
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;
const FENCE = /^\s*(```|~~~)/;
/** `[text](target)` and `![alt](target)`, with an optional "title"; not reference-style links (the project uses none). */
const INLINE_LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const INLINE_CODE = /`[^`]*`/g;

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): Array<[number, string]> {
  const lines: Array<[number, string]> = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (FENCE.test(line)) fenced = !fenced;
    else if (!fenced) lines.push([i + 1, line]);
  });
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown document offers (repeated headings get `-1`, `-2`, … as on GitHub). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, line] of proseLines(text)) {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug((m[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The relative links of `file` (relative to `root`) that lead to no file or to no heading, each with its document (`/`-separated) and line. */
function brokenLinks(root: string, file: string) {
  const absolute = path.join(root, file);
  const text = readFileSync(absolute, 'utf8');
  const broken: Array<{ file: string; line: number; target: string; why: string }> = [];
  for (const [line, content] of proseLines(text)) {
    for (const m of content.replace(INLINE_CODE, '').matchAll(INLINE_LINK)) {
      const target = m[1] as string;
      if (EXTERNAL.test(target)) continue;
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? '' : target.slice(hash + 1);
      const resolved = pathPart === '' ? absolute : path.resolve(path.dirname(absolute), pathPart);
      const anchors = () => (resolved === absolute ? anchorsOf(text) : anchorsOf(readFileSync(resolved, 'utf8')));
      const why = path.relative(root, resolved).startsWith('..')
        ? 'points outside the repository'
        : !existsSync(resolved)
          ? 'no such file'
          : anchor !== '' && resolved.endsWith('.md') && !statSync(resolved).isDirectory() && !anchors().has(decodeURIComponent(anchor).toLowerCase())
            ? `no heading gives #${anchor}`
            : undefined;
      if (why !== undefined) broken.push({ file: file.split(path.sep).join('/'), line, target, why });
    }
  }
  return broken;
}

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name)),
];

test('every relative link of README.md and docs/*.md leads to an existing file and heading', () => {
  const broken = DOCUMENTS.flatMap((file) => brokenLinks(ROOT, file)).map((b) => `${b.file}:${b.line} ${b.target}: ${b.why}`);
  expect(broken).toEqual([]);
});

test.describe('the link check', () => {
  let dir = '';
  test.beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lp-links-'));
    writeFileSync(path.join(dir, 'other.md'), '# Other page\n\n## Load scripts (k6)\n\n```\n# not a heading\n```\n');
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('names GitHub anchors as GitHub does', () => {
    expect(slug('Load scripts (k6)')).toBe('load-scripts-k6');
    expect(slug('Nightly CI (GitHub Actions)')).toBe('nightly-ci-github-actions');
    expect(slug('Fault matrix (`npm run test:faults`)')).toBe('fault-matrix-npm-run-testfaults');
    expect([...anchorsOf('# A\n## A\n```\n# B\n```\n')]).toEqual(['a', 'a-1']);
  });

  test('finds a missing file, a missing heading and a link out of the repository; passes the rest', () => {
    writeFileSync(
      path.join(dir, 'page.md'),
      [
        '# Page',
        '[fine](other.md) [fine](other.md#load-scripts-k6) [fine](#page) [web](https://example.com/x.md)',
        '[gone](missing.md) [no heading](other.md#not-a-heading) `[in code](missing.md)`',
        '[outside](../elsewhere.md)',
        '```',
        '[in a fence](missing.md)',
        '```',
        '',
      ].join('\n'),
    );
    expect(brokenLinks(dir, 'page.md').map((b) => `${b.line} ${b.target} ${b.why}`)).toEqual([
      '3 missing.md no such file',
      '3 other.md#not-a-heading no heading gives #not-a-heading',
      '4 ../elsewhere.md points outside the repository',
    ]);
  });
});
