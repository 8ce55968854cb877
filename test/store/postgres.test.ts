// The PostgreSQL adapter against the Store conformance suite, on a real server (global-setup starts one), each store in
// its own schema; a second handle on the same schema stands for another replica.
import { describe, it } from "vitest";
import type { Store } from "../../src/ports/store.ts";
import { openPostgresStore } from "../../src/store/postgres/index.ts";
import { freshSchemaUrl, testDatabaseUrl } from "../helpers/postgres.ts";
import { runStoreSuite } from "./conformance/index.ts";

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
