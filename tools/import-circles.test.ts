/**
 * No two files of the project import each other, however far round: a circle makes a module's load order matter and
 * hides which one is the lower floor (ESLint holds each folder to the floors below it; this holds each file).
 * Type-only imports count: they tie the files' meaning as much as their values.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { ROOT } from '../common/root.ts';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

test('no import circle among the files of the project', () => {
  const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'));
  const known = new Set(files);
  const graph = new Map(
    files.map((file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const targets = [...text.matchAll(IMPORT)].map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1] ?? '')));
      return [file, targets.filter((target) => known.has(target))];
    }),
  );
  // Depth-first: a file met again while it is still on the path closes a circle.
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  expect(circles).toEqual([]);
});
