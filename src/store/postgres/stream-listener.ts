// Wakes this replica's stream followers when another replica appends (LISTEN/NOTIFY), so a live stream does not wait
// for its poll. One dedicated connection, opened with the first follower; if it drops, the followers' poll (1 s)
// still delivers everything, and the next follower opens it again.
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { StreamFollowers } from "../stream-followers.ts";

export const STREAM_CHANNEL = "smriti_streams";

/** The payload of a notification: the stream and which store handle appended (its own followers are woken already). */
export type StreamNotice = [workspaceId: string, stream: string, origin: string];

export class StreamListener {
  /** Names this handle in its notifications, so it skips its own. */
  readonly origin = randomUUID();
  private client: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly followers: StreamFollowers,
  ) {}

  /** Listens from now on unless it already does; failures are left to the poll. */
  ensure(): void {
    if (this.client || this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    const drop = () => {
      if (this.client === client) this.client = null;
      void client.end().catch(() => {});
    };
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (n) => {
      const [workspaceId, stream, origin] = JSON.parse(n.payload ?? "[]") as Partial<StreamNotice>;
      if (workspaceId !== undefined && stream !== undefined && origin !== this.origin) this.followers.wake(workspaceId, stream, null);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${STREAM_CHANNEL}`))
      .catch(drop); // closed or unreachable meanwhile: the poll covers it
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
