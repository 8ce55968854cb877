// The WorkspaceStore port: workspaces by name or id, tokens by hash.
import { describe, expect, it } from "vitest";
import { T0 } from "../../helpers/documents.ts";
import type { Store } from "../../../src/ports/store.ts";
import { storeHandles, type StoreFactory } from "./support.ts";

/** Opens, at the current schema, a store whose token `tok_old` (hash `hash-old`, workspace `alpha`) was written before tokens had scopes. */
export type LegacyTokenStore = () => Promise<Store>;

export function runWorkspaceStoreSuite(name: string, makeStore: StoreFactory, legacy?: LegacyTokenStore): void {
  describe(`WorkspaceStore conformance: ${name}`, () => {
    const { fresh, twoWorkspaces } = storeHandles(makeStore);
    describe("workspaces and tokens", () => {
      it("ensureWorkspace is idempotent and findWorkspace resolves names and ids", async () => {
        const store = await fresh();
        const w1 = await store.workspaces.ensureWorkspace("alpha", T0);
        const w2 = await store.workspaces.ensureWorkspace("alpha", T0 + 5);
        expect(w2).toEqual(w1);
        expect(await store.workspaces.findWorkspace("alpha")).toEqual(w1);
        expect(await store.workspaces.findWorkspace(w1.id)).toEqual(w1);
        expect(await store.workspaces.findWorkspace("nobody")).toBeUndefined();
        await store.workspaces.ensureWorkspace("beta", T0 + 1);
        expect((await store.workspaces.listWorkspaces()).map((w) => w.name)).toEqual(["alpha", "beta"]);
      });

      it("stores tokens by hash, lists them per workspace and revokes once", async () => {
        const { store, a, b } = await twoWorkspaces();
        await store.workspaces.insertToken(
          {
            id: "tok_a",
            workspaceId: a,
            actors: ["alice"],
            label: "ci",
            scopes: ["read"],
            createdAt: T0,
            revokedAt: null,
          },
          "hash-a",
        );
        await store.workspaces.insertToken(
          {
            id: "tok_b",
            workspaceId: b,
            actors: [],
            label: null,
            scopes: ["read", "write", "execute", "admin"],
            createdAt: T0 + 1,
            revokedAt: null,
          },
          "hash-b",
        );
        expect(await store.workspaces.findTokenByHash("hash-a")).toEqual({
          id: "tok_a",
          workspaceId: a,
          actors: ["alice"],
          label: "ci",
          scopes: ["read"],
          createdAt: T0,
          revokedAt: null,
        });
        expect((await store.workspaces.findTokenByHash("hash-b"))?.scopes).toEqual([
          "read",
          "write",
          "execute",
          "admin",
        ]);
        expect(await store.workspaces.findTokenByHash("nope")).toBeUndefined();
        expect((await store.workspaces.listTokens(a)).map((t) => t.id)).toEqual(["tok_a"]);
        expect((await store.workspaces.listTokens()).map((t) => t.id)).toEqual(["tok_a", "tok_b"]);
        expect(await store.workspaces.revokeToken("tok_a", T0 + 9)).toBe(true);
        expect(await store.workspaces.revokeToken("tok_a", T0 + 10)).toBe(false);
        expect(await store.workspaces.revokeToken("tok_missing", T0)).toBe(false);
        expect((await store.workspaces.findTokenByHash("hash-a"))?.revokedAt).toBe(T0 + 9);
      });

      // Not it.skipIf: every adapter of this repository passes a legacy opener; a new one without it would test less.
      if (legacy)
        it("a token made before scopes existed keeps read, write and admin after the migration, not execute", async () => {
          const store = await legacy();
          try {
            const alpha = (await store.workspaces.findWorkspace("alpha"))!;
            expect(await store.workspaces.findTokenByHash("hash-old")).toMatchObject({
              id: "tok_old",
              workspaceId: alpha.id,
              scopes: ["read", "write", "admin"],
            });
            expect((await store.workspaces.listTokens(alpha.id)).map((t) => t.scopes)).toEqual([
              ["read", "write", "admin"],
            ]);
          } finally {
            await store.close();
          }
        });
    });
  });
}
