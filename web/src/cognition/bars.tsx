// Horizontal bars around zero, for signed figures (uplift: on minus off) and plain counts alike.
export interface Bar {
  label: string;
  value: number;
  /** A one-line description shown on hover (what the label names). */
  hint?: string | undefined;
}

export function Bars({
  bars,
  label,
  format = (v) => v.toFixed(3),
}: {
  bars: Bar[];
  label: string;
  format?: (v: number) => string;
}) {
  const span = Math.max(1e-9, ...bars.map((b) => Math.abs(b.value)));
  const signed = bars.some((b) => b.value < 0);
  return (
    <table className="bars" aria-label={label}>
      <tbody>
        {bars.map((b) => {
          const width = (Math.abs(b.value) / span) * (signed ? 50 : 100);
          const left = signed ? (b.value < 0 ? 50 - width : 50) : 0;
          return (
            <tr key={b.label}>
              <th scope="row" title={b.hint}>
                {b.label}
              </th>
              <td className="bar-cell">
                <div
                  className={`bar ${b.value < 0 ? "neg" : "pos"}`}
                  style={{ marginLeft: `${left}%`, width: `${Math.max(width, 0.5)}%` }}
                />
              </td>
              <td className="num">{format(b.value)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
