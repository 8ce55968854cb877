// PostgreSQL for tests: the server global-setup provides (SMRITI_TEST_DATABASE_URL), one fresh schema per store.
import pg from "pg";

export const testDatabaseUrl: string | undefined = process.env["SMRITI_TEST_DATABASE_URL"];

let schemas = 0;

/** A new empty schema, and the URL whose connections work in it (search_path), as a separate deployment would. */
export async function freshSchemaUrl(base = testDatabaseUrl!): Promise<string> {
  const name = `t_${process.pid}_${schemas++}`;
  const admin = new pg.Client(base);
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${name}`);
  return url.toString();
}
