// A strict client of the served OpenAPI document: a refused payment narrowed by its `code`
// reads the refusal's typed `params`, with no cast (tests/api/test_typescript_client.py).
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Transaction = components["schemas"]["Transaction"];

const client = createClient<paths>({ baseUrl: "http://tablebank.test" });

/** What a payment the payer cannot afford is short of, once all that can be raised is raised. */
export async function stillShort(game: string): Promise<number | Transaction> {
  const { data, error } = await client.POST("/api/v1/games/{game}/transactions", {
    params: { path: { game } },
    body: { type: "payment", from: "p2", to: "p1", amount: 2000 },
  });
  if (error === undefined) {
    return data;
  }
  if (error.code === "insufficient_funds") {
    const shortfall: number = error.params.shortfall;
    const canRaise: number = error.params.can_raise;
    const payer: string = error.params.payer;
    return payer === "p2" ? shortfall - canRaise : 0;
  }
  if (error.code === "validation_error") {
    const fields: string[] = Object.keys(error.errors ?? {});
    return fields.length;
  }
  if (error.code === "idempotency_in_progress" || error.code === "busy") {
    return -1; // nothing refused: ask again
  }
  if (error.code === "version_conflict") {
    const current: string | undefined = error.current;
    return current === undefined ? -2 : -3;
  }
  return error.status;
}

/** The houses a transaction put up (less those it took down), from its typed changes. */
export function housesBuilt(txn: Transaction): number {
  let built = 0;
  for (const change of txn.changes) {
    if (change.kind === "houses") {
      built += change.to - change.from;
    }
  }
  return built;
}
