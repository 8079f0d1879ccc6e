/** Text safe in a Markdown table cell: pipes escaped, line breaks (and the spaces around them) folded to one space. */
export const tableCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** A Markdown table: its head, the separator, and a line per row; cells are written as given (tableCell makes text safe). */
export function markdownTable(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}
