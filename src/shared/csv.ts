/** CSV for the admin exports, safe to open in a spreadsheet. */

/** A cell that a spreadsheet would run as a formula is prefixed with an apostrophe (CSV injection). */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

type Row = readonly (string | null | undefined)[];

/** Rows as CSV lines, each ending in CRLF (a streamed export writes them a batch at a time). */
export function toCsvRows(rows: readonly Row[]): string {
  return rows.map((row) => row.map(csvCell).join(',') + '\r\n').join('');
}

export function toCsv(header: readonly string[], rows: readonly Row[]): string {
  return toCsvRows([header, ...rows]);
}
