/**
 * The relative links of the project's Markdown documents, and which of them lead nowhere: a file that does not exist, or a `#anchor` no heading of the target
 * produces. The documents are read on GitHub and in editors, where a broken link is found only by the reader who follows it; the unit test
 * (tools/docs/links.test.ts) finds it first.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

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
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown document offers (repeated headings get `-1`, `-2`, … as on GitHub). */
export function anchorsOf(text: string): Set<string> {
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
export function brokenLinks(root: string, file: string) {
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
