/** A file `npm run docs` writes: its path from the project root, its content, and how Prettier formats it. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
  /** `markdown`: formatted as `npm run lint` checks it; `none`: written as is. */
  readonly format: 'markdown' | 'none';
}

/** Text safe in a Markdown table cell: pipes escaped, line breaks (and the spaces around them) folded to one space. */
export function tableCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
