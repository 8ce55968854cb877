// When the user asks, at the browser's own UTC offset: a question's "yesterday" is the user's yesterday, not UTC's.

/** `now` as ISO 8601 local time with its offset, e.g. "2023-05-08T01:30:00+02:00" (the request's asked_at). */
export function askedNow(now = new Date()): string {
  const offset = -now.getTimezoneOffset();
  const two = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  const local = new Date(now.getTime() + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${offset < 0 ? "-" : "+"}${two(offset / 60)}:${two(offset % 60)}`;
}
