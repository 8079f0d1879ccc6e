/**
 * Every relative link of README.md and docs/*.md leads to a file of the repository (and to a heading
 * of it, when it names one): the documents must stand on their own, whoever reads them and wherever.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { anchorsOf, brokenLinks, slug } from './links.ts';
import { ROOT } from '../../common/root.ts';

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
