// Plain-text tables with aligned columns (numbers right-aligned).

export function renderTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => (typeof c === "number" ? formatNumber(c) : c)));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const numeric = header.map((_, i) => rows.every((r) => typeof r[i] === "number" || r[i] === "-"));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return "-";
  if (Number.isInteger(x)) return x.toLocaleString("en-US");
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}
