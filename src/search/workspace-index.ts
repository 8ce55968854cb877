// One workspace's in-memory indexes: BM25 over every chunk, a vector index per embedder, and the metadata filters read.
import { turnSpeaker } from "../domain/meetings/speaker-label.ts";
import { tokenize } from "../domain/text/tokenize.ts";
import type { IndexedChunk } from "../ports/search-feed.ts";
import { Bm25Index, ENTRY_BYTES, grow, restoredRoom, type Bm25State } from "./bm25.ts";
import { isOfType, materialize, type ArraySource, type Packed, type Saved, type Typed } from "./snapshot.ts";
import type { ChunkFilter } from "./types.ts";
import { VectorIndex } from "./vector-index.ts";

/** How many turns after its session's start a turn still has one (sessionOf). */
const SESSION_REACH = 64;
/** Sessions remembered at most between two changes of the index. */
const SESSION_CACHE = 50_000;

export class WorkspaceIndex {
  constructor(readonly bm25 = new Bm25Index()) {}

  /** Loaded vector indexes by embedder id. */
  readonly vectors = new Map<string, VectorIndex>();
  /**
   * What filters read of each chunk, by its BM25 slot: its source path (an id into `paths`) and its authored time.
   * Arrays rather than an object per chunk in a Map by id: ~8 MB less heap at 100k chunks, and nothing for V8 to trace.
   */
  private pathOf = new Int32Array(1024);
  private authoredAt = new Float64Array(1024);
  /**
   * Whether the chunk reads as a conversation turn ("Alice: ..."; only turns have thread neighbours) and who speaks it:
   * 0 not a turn, 1 a turn without a name (a role label), 2 + n the speaker `speakers[n]`.
   */
  private turn = new Int32Array(1024);
  /** Each speaker once, as the first query term of the label's name ("bob" for "Bob Lee"), and its number. */
  private readonly speakers: string[] = [];
  private readonly speakerIds = new Map<string, number>();
  /** Per turn id walked by sessionOf since the last change: its session's first turn (null: none) and how far after it. */
  private readonly sessionFirst = new Map<number, number | null>();
  private readonly sessionDepth = new Map<number, number>();
  private sessionWindow = 0;
  /** Each source path once (a document's chunks share it), and its id. */
  private readonly paths: string[] = [];
  private readonly pathIds = new Map<string, number>();
  /** Per path id, its folder's number ("chat/" of "chat/7"; -1 for a path without a folder): conversations compare these. */
  private readonly folderOf: number[] = [];
  private readonly folderIds = new Map<string, number>();

  /** Bytes held, estimated: the BM25 index, every vector index, and the metadata. */
  approxBytes(): number {
    let vectors = 0;
    for (const v of this.vectors.values()) vectors += v.approxBytes();
    return (
      this.bm25.approxBytes() +
      vectors +
      this.pathOf.byteLength +
      this.authoredAt.byteLength +
      this.turn.byteLength +
      (this.paths.length + this.speakers.length + 2 * this.sessionFirst.size) * ENTRY_BYTES
    );
  }

  /** The whole index as a header and arrays (snapshot.ts): BM25, metadata, and each loaded vector index. */
  toPacked(): Packed {
    const bm25 = this.bm25.state();
    const ids = new Float64Array(this.bm25.size);
    const pathOf = new Int32Array(this.bm25.size);
    const authoredAt = new Float64Array(this.bm25.size);
    const turn = new Int32Array(this.bm25.size);
    // Only the paths of chunks still held, renumbered: nothing of a removed document is saved.
    const paths: string[] = [];
    const savedId = new Map<number, number>();
    let i = 0;
    for (const [id, slot] of this.bm25.documents()) {
      const path = this.pathOf[slot]!;
      let saved = savedId.get(path);
      if (saved === undefined) savedId.set(path, (saved = paths.push(this.paths[path]!) - 1));
      ids[i] = id;
      pathOf[i] = saved;
      turn[i] = this.turn[slot]!;
      authoredAt[i++] = this.authoredAt[slot]!;
    }
    const arrays: Record<string, Typed> = {
      "meta.ids": ids,
      "meta.path": pathOf,
      "meta.authoredAt": authoredAt,
      "meta.turn": turn,
    };
    for (const [name, a] of Object.entries(bm25.arrays)) arrays[`bm25.${name}`] = a;
    const vectors = [...this.vectors].map(([embedderId, v], n) => {
      const { arrays: va, ...rest } = v.state();
      for (const [name, a] of Object.entries(va)) if (a) arrays[`vec${n}.${name}`] = a;
      return { embedderId, ...rest, mean: va.mean !== null };
    });
    return { header: { bm25: bm25.counts, terms: bm25.terms, paths, speakers: this.speakers, vectors }, arrays };
  }

  /** The index toPacked() was taken from; throws when the parts do not fit together. */
  static fromPacked({ header, arrays }: Saved): WorkspaceIndex {
    const h = header as {
      bm25: Bm25State["counts"];
      terms: string[];
      paths: string[];
      speakers: string[];
      vectors: { embedderId: string; dimensions: number; slots: number; mean: boolean }[];
    };
    const take = (name: string, type: { name: string }): ArraySource => {
      const a = arrays[name];
      if (!isOfType(a, type)) throw new Error(`index snapshot: ${name} missing or of the wrong type`);
      return a!;
    };
    const bm25 = Bm25Index.fromState({
      counts: h.bm25,
      terms: h.terms,
      arrays: {
        ids: take("bm25.ids", Int32Array),
        lengths: take("bm25.lengths", Float32Array),
        termStart: take("bm25.termStart", Int32Array),
        termCount: take("bm25.termCount", Int32Array),
        arena: take("bm25.arena", Int32Array),
        postingDocs: take("bm25.postingDocs", Int32Array),
        postingTfs: take("bm25.postingTfs", Uint16Array),
        postingLength: take("bm25.postingLength", Int32Array),
        postingDf: take("bm25.postingDf", Int32Array),
      },
    });
    const index = new WorkspaceIndex(bm25);
    const ids = materialize(take("meta.ids", Float64Array), Float64Array);
    const pathOf = materialize(take("meta.path", Int32Array), Int32Array);
    const authoredAt = materialize(take("meta.authoredAt", Float64Array), Float64Array);
    const turn = materialize(take("meta.turn", Int32Array), Int32Array);
    for (const p of h.paths) index.path(p);
    for (const name of h.speakers) index.speaker(name);
    if (ids.length !== bm25.size) throw new Error("index snapshot: metadata and BM25 disagree");
    index.roomForSlots(restoredRoom(h.bm25.slots));
    const placed = new Uint8Array(h.bm25.slots);
    for (let i = 0; i < ids.length; i++) {
      const slot = bm25.slot(ids[i]!);
      const path = pathOf[i]!;
      const turnOf = turn[i]!;
      if (
        slot === undefined ||
        placed[slot] ||
        path < 0 ||
        path >= h.paths.length ||
        turnOf < 0 ||
        turnOf >= h.speakers.length + 2
      )
        throw new Error("index snapshot: metadata and BM25 disagree");
      placed[slot] = 1;
      index.pathOf[slot] = path;
      index.authoredAt[slot] = authoredAt[i]!;
      index.turn[slot] = turnOf;
    }
    h.vectors.forEach((v, n) => {
      const state: Parameters<typeof VectorIndex.fromState>[0] = {
        dimensions: v.dimensions,
        slots: v.slots,
        arrays: {
          data: take(`vec${n}.data`, Int8Array),
          scales: take(`vec${n}.scales`, Float32Array),
          codes: take(`vec${n}.codes`, Uint32Array),
          ids: take(`vec${n}.ids`, Int32Array),
          alive: take(`vec${n}.alive`, Uint8Array),
          mean: v.mean ? take(`vec${n}.mean`, Float32Array) : null,
        },
      };
      index.vectors.set(v.embedderId, VectorIndex.fromState(state));
    });
    return index;
  }

  /** Adds a chunk once (a change replayed twice, or one a page load already saw, changes nothing). */
  add(chunk: IndexedChunk): void {
    if (this.bm25.has(chunk.id)) return;
    this.bm25.add(chunk.id, chunk.terms === "" ? [] : chunk.terms.split(" "));
    const slot = this.bm25.slot(chunk.id)!;
    if (slot >= this.pathOf.length) this.roomForSlots(Math.max(slot + 1, this.pathOf.length * 2)); // as BM25's slots grow
    this.pathOf[slot] = this.path(chunk.sourcePath);
    this.authoredAt[slot] = chunk.authoredAt;
    const speaker = turnSpeaker(chunk.opening);
    const key = speaker ? tokenize(speaker)[0] : undefined;
    this.turn[slot] = speaker === null ? 0 : key === undefined ? 1 : 2 + this.speaker(key);
    this.forgetSessions();
  }

  remove(chunkId: number): void {
    this.bm25.remove(chunkId);
    this.forgetSessions();
    for (const vectors of this.vectors.values()) vectors.remove(chunkId);
  }

  /** A predicate over chunk ids for the filter, or undefined when nothing is filtered. */
  accept(filter: ChunkFilter): ((id: number) => boolean) | undefined {
    const { sourcePathPrefix: prefix, since, until } = filter;
    if (prefix === undefined && since === undefined && until === undefined) return undefined;
    return (id) => {
      const slot = this.bm25.slot(id);
      if (slot === undefined) return false;
      if (prefix !== undefined && !this.paths[this.pathOf[slot]!]!.startsWith(prefix)) return false;
      const authoredAt = this.authoredAt[slot]!;
      if (since !== undefined && authoredAt < since) return false;
      if (until !== undefined && authoredAt >= until) return false;
      return true;
    };
  }

  /**
   * The turns written just before and after this one in its conversation: a conversation stored one turn per document,
   * in one path folder (`chat/turn-7` beside `chat/turn-8`), authored within `windowMs` of each other. Both must read
   * as turns (a speaker label opens them: notes or paragraphs imported together are not a conversation) and be the
   * only chunk of their document (the next section of a file is not a reply). Write order is id order (ids grow with
   * every write; slots follow it only until a reload, which reads the rows by path); ids of other workspaces and of
   * removed chunks in between are skipped (at most a few).
   */
  threadNeighbours(id: number, windowMs: number): number[] {
    const slot = this.bm25.slot(id);
    if (slot === undefined || !this.turn[slot] || !this.alone(id, slot)) return [];
    const out: number[] = [];
    for (const step of [-1, 1]) {
      const n = this.turnBeside(id, slot, step, windowMs);
      if (n !== undefined) out.push(n);
    }
    return out;
  }

  /**
   * The session of a conversation turn, as the id of its first turn: the run of turns each a thread neighbour of the
   * next (no gap over `windowMs`). Null for a chunk that is no turn of a conversation, for a turn alone in its session,
   * and for a turn more than SESSION_REACH turns after its session's start (a log that never pauses has no sessions).
   * What one search walks is kept for the next until the index changes.
   */
  sessionOf(id: number, windowMs: number): number | null {
    const slot = this.bm25.slot(id);
    // No turn, no session: answered without the cache (most chunks of most vaults are none; walks never pass them).
    if (slot === undefined || !this.turn[slot]) return null;
    if (windowMs !== this.sessionWindow || this.sessionFirst.size > SESSION_CACHE) {
      this.sessionWindow = windowMs;
      this.forgetSessions();
    }
    const known = this.sessionFirst.get(id);
    if (known !== undefined) return known;
    if (!this.alone(id, slot)) return this.keepSession([id], null, 0);
    // Back to the session's first turn, or to a turn whose session is known.
    const walked = [id];
    let at = id;
    let atSlot = slot;
    for (;;) {
      const before = this.turnBeside(at, atSlot, -1, windowMs);
      if (before === undefined) {
        if (at === id && this.turnBeside(id, slot, 1, windowMs) === undefined) return this.keepSession(walked, null, 0);
        return this.keepSession(walked, at, 0);
      }
      const first = this.sessionFirst.get(before);
      if (first !== undefined)
        return this.keepSession(walked, first, first === null ? 0 : this.sessionDepth.get(before)! + 1);
      if (walked.length > SESSION_REACH) return this.keepSession([id], null, 0);
      walked.push(before);
      at = before;
      atSlot = this.bm25.slot(before)!;
    }
  }

  /** Records the session of the walked turns (`walked[i]` is `depth + walked.length - 1 - i` turns after `first`). */
  private keepSession(walked: readonly number[], first: number | null, depth: number): number | null {
    // A turn beyond the reach has no session; the turns walked to it may still have one, so only it is kept.
    const tooFar = first !== null && depth + walked.length - 1 > SESSION_REACH;
    if (tooFar) walked = walked.slice(0, 1);
    walked.forEach((id, i) => {
      this.sessionFirst.set(id, tooFar ? null : first);
      this.sessionDepth.set(id, depth + walked.length - 1 - i);
    });
    return tooFar ? null : first;
  }

  /** Any change of the chunks can join or split sessions. */
  private forgetSessions(): void {
    if (this.sessionFirst.size === 0) return;
    this.sessionFirst.clear();
    this.sessionDepth.clear();
  }

  /** The turn of the same conversation written just before (`step` -1) or after (+1) a turn that is `alone`. */
  private turnBeside(id: number, slot: number, step: number, windowMs: number): number | undefined {
    const n = this.writtenBeside(id, step);
    const s = n === undefined ? undefined : this.bm25.slot(n);
    return s !== undefined && this.turn[s] && this.alone(n!, s) && this.sameConversation(slot, s, windowMs)
      ? n
      : undefined;
  }

  /** The chunk of this workspace written next before (`step` -1) or after (+1) this one, looking a few ids away. */
  private writtenBeside(id: number, step: number): number | undefined {
    for (let n = id + step, tries = 0; tries < 8 && n > 0; n += step, tries++) if (this.bm25.has(n)) return n;
    return undefined;
  }

  /** Whether the chunk is its document's only one (a document's chunks are written together, with adjacent ids). */
  private alone(id: number, slot: number): boolean {
    const path = this.pathOf[slot]!;
    return [-1, 1].every((step) => {
      const n = this.writtenBeside(id, step);
      return n === undefined || this.pathOf[this.bm25.slot(n)!] !== path;
    });
  }

  private sameConversation(a: number, b: number, windowMs: number): boolean {
    if (Math.abs(this.authoredAt[a]! - this.authoredAt[b]!) > windowMs) return false;
    const folder = this.folderOf[this.pathOf[a]!]!;
    return folder >= 0 && folder === this.folderOf[this.pathOf[b]!];
  }

  /**
   * Who speaks the chunk, as a query term ("bob" for "Bob Lee: ..."), when it is a named turn of a conversation (it has
   * a thread neighbour, so a paper titled "Vitamin D: ..." is no turn of Vitamin's); else null.
   */
  speakerOf(id: number, windowMs: number): string | null {
    const slot = this.bm25.slot(id);
    const turn = slot === undefined ? 0 : this.turn[slot]!;
    return turn >= 2 && this.threadNeighbours(id, windowMs).length > 0 ? this.speakers[turn - 2]! : null;
  }

  /** The number of a speaker, given one the first time it is seen. */
  private speaker(key: string): number {
    const known = this.speakerIds.get(key);
    if (known !== undefined) return known;
    this.speakerIds.set(key, this.speakers.length);
    return this.speakers.push(key) - 1;
  }

  /** The id of a source path, given one the first time it is seen. */
  private path(sourcePath: string): number {
    const known = this.pathIds.get(sourcePath);
    if (known !== undefined) return known;
    this.pathIds.set(sourcePath, this.paths.length);
    const cut = sourcePath.lastIndexOf("/");
    const folder = cut > 0 ? sourcePath.slice(0, cut) : null;
    let folderId = folder === null ? -1 : this.folderIds.get(folder);
    if (folderId === undefined) this.folderIds.set(folder!, (folderId = this.folderIds.size));
    this.folderOf.push(folderId);
    return this.paths.push(sourcePath) - 1;
  }

  private roomForSlots(n: number): void {
    if (n <= this.pathOf.length) return;
    this.pathOf = grow(this.pathOf, new Int32Array(n));
    this.authoredAt = grow(this.authoredAt, new Float64Array(n));
    this.turn = grow(this.turn, new Int32Array(n));
  }
}
