// Reads one route's latency histogram out of the Prometheus text /metrics serves: the count per bucket, not cumulative.

export interface Bucket {
  /** Upper bound in milliseconds (Infinity for +Inf). */
  le: number;
  count: number;
}

const LINE = /^smriti_http_request_duration_seconds_bucket\{([^}]*)\}\s+(\d+(?:\.\d+)?)/;

export function latencyBuckets(metrics: string, route: string): Bucket[] {
  const cumulative = new Map<number, number>();
  for (const line of metrics.split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (labels.route !== route || labels.status !== "200") continue;
    const le = labels.le === "+Inf" ? Infinity : Number(labels.le) * 1000;
    cumulative.set(le, (cumulative.get(le) ?? 0) + Number(m[2]));
  }
  const bounds = [...cumulative.keys()].sort((a, b) => a - b);
  return bounds.map((le, i) => ({ le, count: cumulative.get(le)! - (i > 0 ? cumulative.get(bounds[i - 1]!)! : 0) }));
}
