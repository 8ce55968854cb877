// One workspace's indexes saved and read back: the filter metadata round-trips by BM25 slot, and parts that do not fit
// together are refused (the engine then rebuilds from the rows) rather than read into a wrong filter.
import { describe, expect, it } from "vitest";
import { WorkspaceIndex } from "../../src/search/workspace-index.ts";

const chunk = (id: number, sourcePath: string, authoredAt: number) => ({
  id,
  terms: `alpha beta w${id}`,
  sourcePath,
  authoredAt,
  chunkHash: `h${id}`,
  opening: "",
});

function sample(): WorkspaceIndex {
  const index = new WorkspaceIndex();
  index.add(chunk(1, "x/1.md", 100));
  index.add(chunk(2, "y/2.md", 200));
  index.add(chunk(3, "x/3.md", 300));
  index.remove(3);
  return index;
}

const admitted = (index: WorkspaceIndex, filter: Parameters<WorkspaceIndex["accept"]>[0]) =>
  [1, 2, 3].filter((id) => index.accept(filter)!(id));

describe("WorkspaceIndex snapshots", () => {
  it("reads back the filters' source paths and times, and saves no path of a removed chunk", () => {
    const packed = sample().toPacked();
    expect(packed.header["paths"]).toEqual(["x/1.md", "y/2.md"]);
    const restored = WorkspaceIndex.fromPacked(packed);
    expect(admitted(restored, { sourcePathPrefix: "x/" })).toEqual([1]);
    expect(admitted(restored, { since: 150 })).toEqual([2]);
    expect(admitted(restored, { until: 150 })).toEqual([1]);
  });

  it("refuses metadata that names a chunk twice or a path it does not list", () => {
    const twice = sample().toPacked();
    (twice.arrays["meta.ids"] as Float64Array)[1] = 1;
    expect(() => WorkspaceIndex.fromPacked(twice)).toThrow(/disagree/);
    const negative = sample().toPacked();
    (negative.arrays["meta.path"] as Int32Array)[0] = -1;
    expect(() => WorkspaceIndex.fromPacked(negative)).toThrow(/disagree/);
  });
});
