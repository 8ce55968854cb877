// Every port's conformance suite, for an adapter that implements them all: runStoreSuite("sqlite", () => openSqliteStore(file)).
import { runAuditLogSuite } from "./audit-log.ts";
import { runCognitiveStoreSuite } from "./cognitive.ts";
import { runDocumentStoreSuite } from "./documents.ts";
import { runEventLogSuite } from "./event-log.ts";
import { runRecordStoreSuite } from "./records.ts";
import { runSearchFeedSuite } from "./search-feed.ts";
import { runSessionIndexSuite } from "./session-index.ts";
import type { StoreFactory } from "./support.ts";
import { runWorkspaceStoreSuite, type LegacyTokenStore } from "./workspaces.ts";

export type { StoreFactory, LegacyTokenStore };

export function runStoreSuite(name: string, makeStore: StoreFactory, legacy?: LegacyTokenStore): void {
  runWorkspaceStoreSuite(name, makeStore, legacy);
  runDocumentStoreSuite(name, makeStore);
  runSearchFeedSuite(name, makeStore);
  runAuditLogSuite(name, makeStore);
  runEventLogSuite(name, makeStore);
  runRecordStoreSuite(name, makeStore);
  runCognitiveStoreSuite(name, makeStore);
  runSessionIndexSuite(name, makeStore);
}
