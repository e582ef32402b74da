// Must NOT type-check: before narrowing by `code`, a problem may be one without `params`
// (tests/api/test_typescript_client.py checks that tsc refuses this file).
import createClient from "openapi-fetch";
import type { paths } from "./schema";

const client = createClient<paths>({ baseUrl: "http://tablebank.test" });

export async function shortfall(game: string): Promise<number> {
  const { error } = await client.POST("/api/v1/games/{game}/transactions", {
    params: { path: { game } },
    body: { type: "payment", from: "p2", to: "p1", amount: 2000 },
  });
  if (error === undefined) {
    return 0;
  }
  return error.params.shortfall;
}
