/** A file `npm run docs` writes: its path from the project root, its content, and how Prettier formats it. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
  /** `markdown`: formatted as `npm run lint` checks it; `none`: written as is. */
  readonly format: 'markdown' | 'none';
}
