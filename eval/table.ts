// Plain-text tables for stdout and markdown tables for summary.md.

export function textTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(cell))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

export function markdownTable(header: string[], rows: (string | number)[][]): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
}

export function cell(v: string | number): string {
  return typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v;
}
