// Retry policy helpers for HTTP clients: which statuses to retry and how long to wait.

const MAX_BACKOFF_MS = 10_000;
const MAX_RETRY_AFTER_MS = 60_000;

/** 408 Request Timeout, 429 Too Many Requests and every 5xx are worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Exponential backoff with jitter: uniform in [b/2, b] for b = base * 2^attempt, capped at 10 s. */
export function backoffMs(attempt: number, baseMs: number): number {
  const b = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return b / 2 + Math.random() * (b / 2);
}

/** Retry-After as delta-seconds or an HTTP date, in ms (capped at 60 s); null if absent or bad. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : null;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
