// A player on the SDK hey-api generates from the served schema (@hey-api/openapi-ts with its
// fetch client), as a mobile or web team would use it: the token is given to the client once
// and the SDK sends it on the operations whose `security` asks for it (required, or optional
// as on the boards), so no call adds a header by hand and nothing is cast. It must type-check
// with `tsc --noEmit --strict` and run against a live server
// (tests/clients/test_typescript_client.py writes config.ts and runs it).
import { client } from "./sdk/client.gen.js";
import {
  authGuest,
  authLink,
  leaderboardDaily,
  playsCreate,
  playsHint,
  playsList,
  playsMovesCreate,
} from "./sdk/sdk.gen.js";

import { BASE_URL, PASSWORD, USERNAME, WINNING_DECK } from "./config.js";

function check(condition: boolean, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}

// What a device makes once and keeps: a UUID and 32 random bytes in base64url.
function newDevice(): { device_id: string; device_secret: string } {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  return { device_id: crypto.randomUUID(), device_secret: secret };
}

function cursorOf(link: string | null): string {
  check(link !== null, "a link to follow");
  const cursor = new URL(link).searchParams.get("cursor");
  check(cursor !== null, `a cursor in ${link}`);
  return cursor;
}

async function main(): Promise<void> {
  client.setConfig({ baseUrl: BASE_URL });
  // No form before the first card: the app starts as a guest of its device.
  const guest = await authGuest({ body: newDevice() });
  check(guest.data !== undefined, `guest: ${JSON.stringify(guest.error)}`);
  check(guest.data.guest, "a guest account");
  client.setConfig({ auth: guest.data.access });

  // My rank: a ranked play of today's deal, resigned, then the board around me.
  const ranked = await playsCreate({ body: { preset: "easthaven", daily: "today" } });
  check(ranked.data !== undefined, `ranked: ${JSON.stringify(ranked.error)}`);
  const resigned = await playsMovesCreate({
    path: { play_id: ranked.data.id },
    body: { seq: ranked.data.seq, move: { type: "resign" } },
  });
  check(resigned.data !== undefined, `resign: ${JSON.stringify(resigned.error)}`);

  // "Keep my progress": the guest takes a name and a password, and keeps its play.
  const linked = await authLink({ body: { username: USERNAME, password: PASSWORD } });
  check(linked.data !== undefined, `link: ${JSON.stringify(linked.error)}`);
  check(!linked.data.guest && linked.data.username === USERNAME, "linked under my name");
  client.setConfig({ auth: linked.data.access });
  const board = await leaderboardDaily({
    path: { preset: "easthaven", date: "today" },
    query: { around: "me" },
  });
  check(board.data !== undefined, `around=me: ${JSON.stringify(board.error)}`);
  const me = board.data.results.find((entry) => entry.username === USERNAME);
  check(me !== undefined, "my entry around me");

  // A hint played as it comes: Hint.move is a Move, the move endpoint's own type.
  const seahaven = await playsCreate({ body: { preset: "seahaven", deck: WINNING_DECK } });
  check(seahaven.data !== undefined, `seahaven: ${JSON.stringify(seahaven.error)}`);
  const play = { path: { play_id: seahaven.data.id } };
  const hint = await playsHint(play);
  check(hint.data !== undefined, `hint: ${JSON.stringify(hint.error)}`);
  check(hint.data.move !== null, `a hint with a move, got ${hint.data.result}`);
  const hinted = await playsMovesCreate({
    ...play,
    body: { seq: hint.data.seq, move: hint.data.move },
  });
  check(hinted.data !== undefined, `the hinted move: ${JSON.stringify(hinted.error)}`);
  check(hinted.data.seq === hint.data.seq + 1, "the hint was played");

  // Two more plays, then my plays a page at a time: forward twice and back once.
  for (const seed of [1, 2]) {
    const practice = await playsCreate({ body: { preset: "westcliff", seed } });
    check(practice.data !== undefined, `practice: ${JSON.stringify(practice.error)}`);
  }
  const first = await playsList({ query: { page_size: 1 } });
  check(first.data !== undefined, `plays: ${JSON.stringify(first.error)}`);
  const second = await playsList({ query: { page_size: 1, cursor: cursorOf(first.data.next) } });
  check(second.data !== undefined, `next: ${JSON.stringify(second.error)}`);
  const third = await playsList({ query: { page_size: 1, cursor: cursorOf(second.data.next) } });
  check(third.data !== undefined, `next again: ${JSON.stringify(third.error)}`);
  const back = await playsList({
    query: { page_size: 1, cursor: cursorOf(third.data.previous) },
  });
  check(back.data !== undefined, `previous: ${JSON.stringify(back.error)}`);
  check(back.data.results[0]?.id === second.data.results[0]?.id, "previous leads back");

  console.log(`rank ${me.rank} around me; played a hint; paged back through 4 plays`);
}

await main();
