// Index snapshots: a runtime saves its loaded indexes when it closes, and the next one reads them back and replays the
// change log after them. Recall must answer exactly as a runtime that loads every row, whatever happened in between.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGloveEmbedder } from "../../src/embed/glove.ts";
import type { Embedder } from "../../src/ports/embedding.ts";
import { pack } from "../../src/search/snapshot.ts";
import { unpack } from "../helpers/snapshot.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";

const TOPICS = ["billing", "search", "storage", "deploys", "alerts", "backups"];
const note = (topic: string, i: number) =>
  `# ${topic} ${i}\n\nThe ${topic} team moved job ${i} to Tuesday after the ${topic} migration.\n\nOwner ${i} checks the ${topic} dashboards.`;
const QUERIES = [
  ...TOPICS.map((t) => `${t} migration`),
  "who checks the dashboards",
  "job moved to Tuesday",
  "owner 7",
];
/** Note i of each topic was authored on day i of January 2026. */
const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
/** Recall's filters, which read the per-chunk metadata the snapshot carries. */
const FILTERS = [undefined, { source_path_prefix: "billing/" }, { since: day(4), until: day(8) }];

describe("index snapshots", () => {
  let glove: Embedder;
  let dataDir = "";
  const open = (env: Record<string, string> = {}) =>
    startTestService({ embedder: glove, env, ...(dataDir ? { dataDir } : {}) });
  /** Every query's hits (hash and score) through HTTP, with each of the filters. */
  const answers = async (svc: TestService) =>
    Promise.all(
      FILTERS.flatMap((filter) =>
        QUERIES.map(async (query) =>
          (
            (await (await svc.post("/v1/memory/recall", { query, k: 8, filters: filter })).json()) as {
              hits: { chunk_hash: string; score: number }[];
            }
          ).hits.map((h) => [h.chunk_hash, h.score]),
        ),
      ),
    );
  const snapshotFile = () =>
    join(
      dataDir,
      "index",
      readdirSync(join(dataDir, "index")).find((f) => f.endsWith(".idx"))!,
    );
  /** Recall as a runtime that reads every row answers it (snapshots off: it neither reads nor writes one). */
  const fromRows = async () => {
    const svc = await open({ SMRITI_INDEX_SNAPSHOTS: "0" });
    try {
      return await answers(svc);
    } finally {
      await svc.runtime.close();
    }
  };

  beforeAll(async () => {
    glove = await loadGloveEmbedder();
    const svc = await open();
    dataDir = svc.dataDir;
    for (const t of TOPICS)
      for (let i = 0; i < 12; i++)
        expect(
          (await svc.post("/v1/memory/ingest", { source_path: `${t}/${i}.md`, content: note(t, i), timestamp: day(i) }))
            .status,
        ).toBe(200);
    await answers(svc); // loads the indexes (BM25 and vectors)
    await svc.runtime.close(); // saves them
  });
  afterAll(async () => {
    const svc = await open();
    await svc.cleanup();
  });

  it("of a --workers group only the lead saves its indexes at close; another worker leaves them to it", async () => {
    const other = await startTestService({ embedder: glove, lead: false });
    const saved = () =>
      existsSync(join(other.dataDir, "index"))
        ? readdirSync(join(other.dataDir, "index")).filter((f) => f.endsWith(".idx"))
        : [];
    try {
      expect((await other.post("/v1/memory/ingest", { source_path: "a.md", content: note("billing", 1) })).status).toBe(
        200,
      );
      await answers(other); // loads the indexes: there is something to save
      await other.runtime.close();
      expect(saved()).toEqual([]);
      const lead = await startTestService({ embedder: glove, dataDir: other.dataDir });
      await answers(lead);
      await lead.runtime.close();
      expect(saved()).toHaveLength(1);
    } finally {
      rmSync(other.dataDir, { recursive: true, force: true });
    }
  });

  it("a restart reads the saved indexes back and answers as a load from the rows does", async () => {
    const svc = await open();
    try {
      const restored = await answers(svc);
      expect(svc.runtime.search.stats()).toMatchObject({ loads: 1, restored: 1 });
      const billing = (await (
        await svc.post("/v1/memory/recall", { query: "migration", k: 20, filters: FILTERS[1] })
      ).json()) as { hits: { source_path: string }[] };
      expect(billing.hits.length).toBeGreaterThan(0);
      expect(billing.hits.every((h) => h.source_path.startsWith("billing/"))).toBe(true);
      const dated = (await (
        await svc.post("/v1/memory/recall", { query: "migration", k: 50, filters: FILTERS[2] })
      ).json()) as { hits: { source_path: string }[] };
      expect(new Set(dated.hits.map((h) => Number(/\/(\d+)\.md$/.exec(h.source_path)![1])))).toEqual(
        new Set([4, 5, 6, 7]),
      );
      expect(restored).toEqual(await fromRows());
    } finally {
      await svc.runtime.close();
    }
  });

  it("replays what changed after the snapshot: new chunks are found, forgotten ones are not", async () => {
    const writer = await open({ SMRITI_INDEX_SNAPSHOTS: "0" });
    expect(
      (
        await writer.post("/v1/memory/ingest", {
          source_path: "billing/new.md",
          content: "The billing ledger moved to the zebra cluster on Friday.",
        })
      ).status,
    ).toBe(200);
    expect((await writer.post("/v1/memory/forget", { source_path: "search/3.md" })).status).toBe(200);
    await writer.runtime.close();
    const svc = await open();
    try {
      const zebra = (await (await svc.post("/v1/memory/recall", { query: "zebra cluster", k: 3 })).json()) as {
        hits: { source_path: string }[];
      };
      expect(zebra.hits[0]?.source_path).toBe("billing/new.md");
      const search = (await (await svc.post("/v1/memory/recall", { query: "search team owner 3", k: 20 })).json()) as {
        hits: { source_path: string }[];
      };
      expect(search.hits.map((h) => h.source_path)).not.toContain("search/3.md");
      expect(svc.runtime.search.stats().restored).toBe(1);
      expect(await answers(svc)).toEqual(await fromRows());
    } finally {
      await svc.runtime.close(); // saves again: the index moved past its snapshot
    }
  });

  it("keeps nothing of a forgotten document: the forget deletes the snapshot, and the next one lacks its terms", async () => {
    const first = await open();
    try {
      expect(
        (
          await first.post("/v1/memory/ingest", {
            source_path: "secret.md",
            content: "The vault code is xylophonequartz.",
          })
        ).status,
      ).toBe(200);
      expect(
        (
          (await (await first.post("/v1/memory/recall", { query: "xylophonequartz", k: 1 })).json()) as {
            hits: unknown[];
          }
        ).hits,
      ).toHaveLength(1);
    } finally {
      await first.runtime.close();
    }
    expect(readFileSync(snapshotFile()).includes("xylophon")).toBe(true); // saved with the secret in it
    // A process that has not loaded the index forgets it (as `smriti forget` does): the snapshot goes at once.
    const forgetting = await open();
    try {
      expect((await forgetting.post("/v1/memory/forget", { source_path: "secret.md" })).status).toBe(200);
      expect(existsSync(join(dataDir, "index"))).toBe(true);
      expect(readdirSync(join(dataDir, "index")).filter((f) => f.endsWith(".idx"))).toEqual([]);
    } finally {
      await forgetting.runtime.close();
    }
    // The next process reads every row and saves a snapshot without the forgotten terms.
    const next = await open();
    try {
      expect(await answers(next)).toEqual(await fromRows());
      expect(next.runtime.search.stats().restored).toBe(0);
    } finally {
      await next.runtime.close();
    }
    const saved = readFileSync(snapshotFile());
    expect(unpack(saved)).not.toBeNull();
    expect(saved.includes("xylophon")).toBe(false);
    expect(saved.includes("dashboard")).toBe(true); // what remains is still there
  });

  it("a process with the index loaded deletes its snapshot when it applies a removal made elsewhere", async () => {
    const loaded = await open();
    try {
      await answers(loaded); // restored from the snapshot
      expect(loaded.runtime.search.stats().restored).toBe(1);
      const other = await open({ SMRITI_INDEX_SNAPSHOTS: "0" }); // another process: its forget does not touch the file
      expect((await other.post("/v1/memory/forget", { source_path: "storage/5.md" })).status).toBe(200);
      await other.runtime.close();
      expect(existsSync(snapshotFile())).toBe(true);
      await answers(loaded); // catches up on the removal
      expect(readdirSync(join(dataDir, "index")).filter((f) => f.endsWith(".idx"))).toEqual([]);
    } finally {
      await loaded.runtime.close(); // saves a fresh one
    }
    const saved = readFileSync(snapshotFile());
    expect(unpack(saved)).not.toBeNull();
    expect(saved.includes("storage/5.md")).toBe(false); // not even the forgotten document's path
    expect(saved.includes("storage/4.md")).toBe(true);
  });

  it("refuses a corrupt snapshot and one of another history, loading from the rows instead", async () => {
    const file = snapshotFile();
    const good = readFileSync(file);
    const expected = await fromRows();
    // A flipped byte in the middle: the checksum no longer matches.
    const corrupt = Buffer.from(good);
    corrupt[corrupt.length >> 1]! ^= 0xff;
    expect(unpack(corrupt)).toBeNull();
    // Intact, but its last change is not what the store's log holds at that seq (a store restored from elsewhere).
    const packed = unpack(good)!;
    const mark = packed.header as { last: { chunkId: number } };
    const foreign = Buffer.concat(
      pack({
        header: { ...packed.header, last: { ...mark.last, chunkId: mark.last.chunkId + 1000 } },
        arrays: packed.arrays,
      }),
    );
    for (const bytes of [corrupt, foreign]) {
      writeFileSync(file, bytes);
      const svc = await open();
      try {
        expect(await answers(svc)).toEqual(expected);
        expect(svc.runtime.search.stats()).toMatchObject({ loads: 1, restored: 0 });
      } finally {
        await svc.runtime.close();
      }
    }
    // The last runtime saved a good one again.
    expect(unpack(readFileSync(file))).not.toBeNull();
  });

  it("unpack refuses truncated bytes and round-trips every array type", () => {
    const arrays = {
      a: Int8Array.from([-1, 2]),
      b: Uint16Array.from([65535]),
      c: Float64Array.from([Math.PI]),
      d: Uint8Array.from([]),
    };
    const bytes = Buffer.concat(pack({ header: { x: 1 }, arrays }));
    expect(unpack(bytes)).toEqual({ header: { x: 1 }, arrays });
    expect(unpack(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(unpack(bytes.subarray(0, 10))).toBeNull();
  });
});
