// The PostgreSQL adapter against the Store conformance suite, on a real server (global-setup starts one), each store in
// its own schema; a second handle on the same schema stands for another replica.
import { describe, expect, it } from "vitest";
import type { Store } from "../../src/ports/store.ts";
import { openPostgresStore } from "../../src/store/postgres/index.ts";
import { freshSchemaUrl, testDatabaseUrl } from "../helpers/postgres.ts";
import { runStoreSuite } from "./conformance/index.ts";

// Without a server (no Debian postgresql and no SMRITI_TEST_DATABASE_URL) the suite shows as skipped, with the reason;
// global-setup prints it too, and under CI a missing server fails the run instead.
if (!testDatabaseUrl) describe("postgres", () => it.skip("PostgreSQL is not installed (apt-get install postgresql)", () => {}));
else {
  const urlOf = new WeakMap<Store, string>();
  runStoreSuite("postgres", async (sharedWith) => {
    const url = sharedWith ? urlOf.get(sharedWith)! : await freshSchemaUrl();
    const store = await openPostgresStore(url, { maxConnections: 4 });
    urlOf.set(store, url);
    return store;
  });
}

if (testDatabaseUrl)
  describe("postgres: stream followers across handles", () => {
    it("wakes a follower on another handle (another replica) when its stream grows, and not for other streams", async () => {
      const url = await freshSchemaUrl();
      const [one, two] = await Promise.all([openPostgresStore(url, { maxConnections: 2 }), openPostgresStore(url, { maxConnections: 2 })]);
      try {
        const ws = (await one.ensureWorkspace("w", 0)).id;
        let woken = 0;
        const off = two.subscribeStream(ws, "s", () => woken++);
        // The listener connects in the background: append until the first notification arrives (SQLite has none).
        for (const deadline = Date.now() + 10_000; woken === 0 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100)))
          await one.appendStream(ws, "s", [{ type: "x", at: 0, data: null }]);
        expect(woken).toBeGreaterThan(0);
        await new Promise((r) => setTimeout(r, 300)); // notifications of the appends before the first wake
        const before = woken;
        await one.appendStream(ws, "other", [{ type: "x", at: 0, data: null }]);
        await one.appendStream(ws, "s", [{ type: "x", at: 0, data: null }]);
        for (const deadline = Date.now() + 5_000; woken === before && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 300)); // a wake for "other" would have come first: it must not come at all
        expect(woken).toBe(before + 1);
        off();
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });
  });
