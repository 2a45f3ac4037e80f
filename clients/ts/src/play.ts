// A small Haven client on types generated from the served schema (openapi-typescript) and
// openapi-fetch, as a web team would write it: no casts, no hand-written types. It must
// type-check with `tsc --noEmit --strict` and play to finished plays against a live server
// (tests/clients/test_typescript_client.py writes config.ts and runs it).
import createClient from "openapi-fetch";

import { BASE_URL, PASSWORD, USERNAME, WINNING_DECK } from "./config.js";
import type { components, paths } from "./schema.js";

type Move = components["schemas"]["Move"];
type Play = components["schemas"]["Play"];

function check(condition: boolean, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

function describe(move: Move): string {
  // The union is discriminated on `type`: only a card move has piles.
  switch (move.type) {
    case "move":
      return `${move.from}-${move.to}x${move.count ?? 1}`;
    case "deal":
    case "undo":
    case "resign":
      return move.type;
  }
}

async function main(): Promise<void> {
  const anonymous = createClient<paths>({ baseUrl: BASE_URL });

  // Public reads need no token; German rules, then a 304 on the same ETag.
  const presets = await anonymous.GET("/api/v1/presets", { params: { query: { lang: "de" } } });
  check(presets.data !== undefined, "presets");
  check(presets.response.headers.get("Content-Language") === "de", "German presets");
  const first = presets.data.presets[0];
  check(first !== undefined && first.rules.length > 0, "rules summary");
  const etag = presets.response.headers.get("ETag");
  check(etag !== null, "presets ETag");
  const again = await anonymous.GET("/api/v1/presets", {
    params: { query: { lang: "de" }, header: { "If-None-Match": etag } },
  });
  check(again.response.status === 304, `304 expected, got ${again.response.status}`);

  const registered = await anonymous.POST("/api/v1/auth/register", {
    body: { username: USERNAME, password: PASSWORD },
  });
  check(registered.data !== undefined, `register: ${JSON.stringify(registered.error)}`);
  const client = createClient<paths>({
    baseUrl: BASE_URL,
    headers: { Authorization: `Bearer ${registered.data.access}` },
  });

  // A practice play: one legal move, a stale seq refused with its code, undo, resign.
  const started = await client.POST("/api/v1/plays", { body: { preset: "westcliff", seed: 2026 } });
  check(started.data !== undefined, `start: ${JSON.stringify(started.error)}`);
  check(started.response.headers.get("Location") === `/api/v1/plays/${started.data.id}`, "Location");
  let play: Play = started.data;
  const playId = { params: { path: { play_id: play.id } } };
  const legal = play.legal_moves.find((move) => move.type === "move") ?? play.legal_moves[0];
  check(legal !== undefined, "a legal move");
  const moved = await client.POST("/api/v1/plays/{play_id}/moves", {
    ...playId,
    body: { seq: play.seq, move: legal },
  });
  check(moved.data !== undefined, `move ${describe(legal)}: ${JSON.stringify(moved.error)}`);
  play = moved.data;
  const stale = await client.POST("/api/v1/plays/{play_id}/moves", {
    ...playId,
    body: { seq: 0, move: { type: "deal" } },
  });
  check(stale.error !== undefined && stale.error.code === "stale_sequence", "stale_sequence");
  check(stale.error.seq === play.seq, "the current seq comes with stale_sequence");

  const polled = await client.GET("/api/v1/plays/{play_id}", {
    params: { path: { play_id: play.id }, header: { "If-None-Match": moved.response.headers.get("ETag") ?? "" } },
  });
  check(polled.response.status === 304, "an unchanged play is a 304");

  const undone = await client.POST("/api/v1/plays/{play_id}/moves", {
    ...playId,
    body: { seq: play.seq, move: { type: "undo" } },
  });
  check(undone.data !== undefined && undone.data.score.undos === 1, "undo");
  const resigned = await client.POST("/api/v1/plays/{play_id}/moves", {
    ...playId,
    body: { seq: undone.data.seq, move: { type: "resign" } },
  });
  check(resigned.data !== undefined && resigned.data.status === "resigned", "resign");
  check(resigned.data.legal_moves.length === 0, "a finished play lists no moves");

  // A Seahaven deck won by foundation moves alone: play it to a win.
  const seahaven = await client.POST("/api/v1/plays", {
    body: { preset: "seahaven", deck: WINNING_DECK },
  });
  check(seahaven.data !== undefined, `seahaven: ${JSON.stringify(seahaven.error)}`);
  play = seahaven.data;
  for (let step = 0; play.status === "playing" && step < 200; step++) {
    const next =
      play.legal_moves.find((move) => move.type === "move" && move.to === "f") ??
      play.legal_moves[0];
    check(next !== undefined, "a legal move while playing");
    const answer = await client.POST("/api/v1/plays/{play_id}/moves", {
      params: { path: { play_id: play.id } },
      body: { seq: play.seq, move: next },
    });
    check(answer.data !== undefined, `move ${describe(next)}: ${JSON.stringify(answer.error)}`);
    play = answer.data;
  }
  check(play.status === "won", `won expected, got ${play.status}`);
  check(play.score.foundation_cards === 52, "52 cards on the foundations");

  const log = await client.GET("/api/v1/plays/{play_id}/moves", {
    params: { path: { play_id: play.id } },
  });
  check(log.data !== undefined && log.data.moves.length === play.seq, "the move log");
  console.log(`played: resigned a westcliff practice play, won seahaven in ${play.seq} moves`);
}

await main();
