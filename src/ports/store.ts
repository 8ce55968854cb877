// A whole store adapter: one repository per port over one deployment's data, and the handle that closes it.
import type { AuditLog } from "./audit-log.ts";
import type { CognitiveStore } from "./cognitive.ts";
import type { DocumentStore } from "./documents.ts";
import type { EventLog } from "./event-log.ts";
import type { RecordStore } from "./records.ts";
import type { SearchFeed } from "./search-feed.ts";
import type { SessionIndex } from "./session-index.ts";
import type { WorkspaceStore } from "./workspaces.ts";

/** What an adapter (store/sqlite, store/postgres) provides; services take only the ports they use. */
export interface Store {
  workspaces: WorkspaceStore;
  documents: DocumentStore;
  audit: AuditLog;
  streams: EventLog;
  records: RecordStore;
  cognitive: CognitiveStore;
  feed: SearchFeed;
  sessions: SessionIndex;
  close(): Promise<void>;
}
