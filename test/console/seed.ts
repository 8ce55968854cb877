// The document the console's tests and screenshots seed memory with: a decision and its consequences, each citable.
export const SEED = {
  source_path: "adr/0007-ledger-database.md",
  content:
    "# Ledger database\n\n## Decision\n\nAlice picked PostgreSQL for the ledger in March because it has transactions.\n\n## Consequences\n\nBob runs the nightly backups with pgBackRest.\n",
};
