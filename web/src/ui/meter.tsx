// A labelled bar for a share of something (health score, budget used, context use); colour follows the level.
export function Meter({
  value,
  label,
  max = 1,
  goodWhenHigh = false,
}: {
  value: number;
  label: string;
  max?: number;
  goodWhenHigh?: boolean;
}) {
  const share = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  const risk = goodWhenHigh ? 1 - share : share;
  const level = risk >= 0.8 ? "high" : risk >= 0.5 ? "mid" : "low";
  return (
    <div className="meter" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={value}>
      <div className={`fill ${level}`} style={{ width: `${(share * 100).toFixed(1)}%` }} />
    </div>
  );
}
