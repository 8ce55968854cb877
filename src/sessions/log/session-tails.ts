// The events of recently read sessions, kept between reads: a session's log only grows (append-only, ordered by seq),
// so a later read fetches only what came after the last cached event, from whichever process appended it. A turn reads
// its session's whole log; without this, a turn in a session of 20,000 events spent most of its time re-reading them.
import type { StreamEvent } from "../../ports/event-log.ts";

/** How many events all cached sessions may hold together (about 1 KB each); the least recently read leave first. */
const MAX_EVENTS = 50_000;

export class SessionTails {
  private readonly tails = new Map<string, StreamEvent[]>();
  private held = 0;

  constructor(private readonly maxEvents = MAX_EVENTS) {}

  /** The cached events of a session (do not mutate), marking it recently read; [] when none are. */
  get(key: string): readonly StreamEvent[] {
    const events = this.tails.get(key);
    if (!events) return [];
    this.tails.delete(key);
    this.tails.set(key, events);
    return events;
  }

  /**
   * Adds events read after seq `after`, when they continue the cached ones exactly (a cache always starts at the
   * session's first event); a session larger than the whole budget is not kept.
   */
  extend(key: string, after: number, more: readonly StreamEvent[]): void {
    if (!more.length) return;
    const events = this.tails.get(key) ?? [];
    if ((events.at(-1)?.seq ?? 0) !== after) return; // another read got there first, or the start was dropped
    if (!this.tails.has(key)) this.tails.set(key, events);
    for (const e of more) events.push(Object.freeze(e));
    this.held += more.length;
    if (events.length > this.maxEvents) this.drop(key);
    for (const [oldest] of this.tails) {
      if (this.held <= this.maxEvents) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    this.held -= this.tails.get(key)?.length ?? 0;
    this.tails.delete(key);
  }
}
