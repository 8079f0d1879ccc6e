/** Text safe in a Markdown table cell: pipes escaped, line breaks (and the spaces around them) folded to one space. */
export function tableCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
