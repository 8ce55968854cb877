// Per-token abuse limits (HTTP routes and MCP over HTTP): a bucket of requests refilled at a steady rate, and a cap on open event streams.
import { AppError } from "../contract/errors.ts";

export interface TokenLimits {
  /** Sustained requests per second one token may send; the bucket holds twice that for bursts. 0 = no limit. */
  ratePerSecond: number;
  /** Event streams (SSE) one token may hold open at once. 0 = no limit. */
  streamsPerToken: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before full, idle ones are dropped (one per token that called recently). */
const MAX_BUCKETS = 10_000;

export class TokenLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly streams = new Map<string, number>();

  constructor(
    readonly limits: TokenLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one request of the token; 429 rate_limited with the seconds until one is allowed again. */
  take(tokenId: string): void {
    const rate = this.limits.ratePerSecond;
    if (rate <= 0) return;
    const capacity = 2 * rate;
    const now = this.now();
    const b = this.buckets.get(tokenId) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    if (b.tokens < 1) {
      const wait = Math.max(1, Math.ceil((1 - b.tokens) / rate));
      throw new AppError(
        "rate_limited",
        `this token sent more than ${rate} requests a second (bursts up to ${capacity}); retry in ${wait} s`,
        {
          retry_after_seconds: wait,
          limit_per_second: rate,
        },
      );
    }
    b.tokens -= 1;
    if (!this.buckets.has(tokenId) && this.buckets.size >= MAX_BUCKETS) this.prune(now, rate, capacity);
    this.buckets.set(tokenId, b);
  }

  /** Opens a stream for the token (429 too_many_streams past the cap); call the returned function once it closes. */
  openStream(tokenId: string): () => void {
    const cap = this.limits.streamsPerToken;
    const open = this.streams.get(tokenId) ?? 0;
    if (cap > 0 && open >= cap)
      throw new AppError(
        "too_many_streams",
        `this token already holds ${open} open event streams (the limit); close one or retry later`,
        {
          retry_after_seconds: 1,
          open_streams: open,
          limit: cap,
        },
      );
    this.streams.set(tokenId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.streams.get(tokenId) ?? 1) - 1;
      if (left > 0) this.streams.set(tokenId, left);
      else this.streams.delete(tokenId);
    };
  }

  /** Drops buckets that have refilled completely: forgetting them changes nothing. */
  private prune(now: number, rate: number, capacity: number): void {
    for (const [id, b] of this.buckets)
      if (b.tokens + ((now - b.at) / 1000) * rate >= capacity) this.buckets.delete(id);
  }
}
