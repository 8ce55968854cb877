// Wakes this replica's stream followers when another replica appends (LISTEN/NOTIFY), so a live stream does not wait
// for its poll. One dedicated connection, opened with the first follower; when it drops (a database restart) it opens
// again by itself with a growing pause, and once it listens again every follower reads the store: nothing appended
// while it was deaf is missed, and until then the followers' poll (1 s) delivers it.
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { StreamFollowers } from "../stream-followers.ts";

export const STREAM_CHANNEL = "smriti_streams";
/** The first pause before opening a dropped connection again, doubled on each failure up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/** The payload of a notification: the stream and which store handle appended (its own followers are woken already). */
export type StreamNotice = [workspaceId: string, stream: string, origin: string];

export class StreamListener {
  /** Names this handle in its notifications, so it skips its own. */
  readonly origin = randomUUID();
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  /** It listened, then its connection dropped, and it has not listened since. */
  private deaf = false;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly followers: StreamFollowers,
  ) {}

  /** Listens from now on unless it already does (or is about to open again); failures are left to the poll. */
  ensure(): void {
    if (this.client || this.retry || this.closed) return;
    this.open();
  }

  private open(): void {
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = null;
      this.failures++;
      this.deaf = true;
      void client.end().catch(() => {});
      this.again();
    };
    // Every way the connection can fail ends here, so no 'error' goes unheard (issue 39).
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (n) => {
      const [workspaceId, stream, origin] = JSON.parse(n.payload ?? "[]") as Partial<StreamNotice>;
      if (workspaceId !== undefined && stream !== undefined && origin !== this.origin)
        this.followers.wake(workspaceId, stream, null);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${STREAM_CHANNEL}`))
      .then(() => {
        if (dropped) return;
        // After a drop, an append made while it was deaf was not heard: every follower reads (the first time, a
        // follower has read the store after subscribing, so it missed nothing).
        if (this.deaf) this.followers.wakeAll();
        [this.failures, this.deaf] = [0, false];
      })
      .catch(drop);
  }

  private again(): void {
    if (this.closed || this.retry) return;
    const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (this.failures - 1));
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed && !this.client) this.open();
    }, wait).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
