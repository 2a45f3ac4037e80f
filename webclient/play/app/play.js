// The play screen: the table, selecting cards and targets (the taps, drags and keys that do
// it are input.js's), sending moves safely, undo, resign and the result.
//
// A move is sent with the play's seq and a fresh Idempotency-Key. If the connection drops,
// the same request (same seq, same key) is sent again, automatically and then by the
// Retry button: the server applies it at most once. A 409 means the play moved on
// elsewhere (another tab, an earlier attempt): the play is fetched again.

import { ApiError, NetworkError, newKey } from "./api.js";
import { clear, formatSeconds, h } from "./dom.js";
import { t } from "./i18n.js";
import { attachInput } from "./input.js";
import { liveBoard } from "./live.js";
import { cardEl, cardText, renderTable } from "./table.js";

export function describeMove(move) {
  if (move.type !== "move") return t(`move_${move.type}`);
  const to = move.to === "f" ? t("foundation") : pileName(move.to);
  const count = move.count > 1 ? ` ×${move.count}` : "";
  return `${pileName(move.from)} → ${to}${count}`;
}

function pileName(id) {
  if (id === "w") return t("waste");
  if (id[0] === "c") return t("cell_n", { n: Number(id.slice(1)) + 1 });
  if (id[0] === "t") return t("column_n", { n: Number(id.slice(1)) + 1 });
  return id;
}

export function playScreen(app, playId) {
  const { api } = app;
  const root = h("section", { class: "screen play-screen" });
  let play = null;
  let selection = null; // {from, count, auto}
  let busy = false;
  let pending = null; // {move, seq, key}: the move whose answer we never got
  let message = null; // {kind: "error" | "info" | "offline", text}
  let confirmResign = false;
  let showRules = false;
  let result = null; // {rank} once finished and looked up
  let dismissed = false;
  let timer = null;

  const legal = () => (play && play.legal_moves) || [];
  const playing = () => play && play.status === "playing";

  function pileCards(id) {
    if (id[0] === "t") return play.tableau[Number(id.slice(1))].up;
    if (id === "w") return play.waste || [];
    if (id[0] === "c") return play.cells[Number(id.slice(1))] ? [play.cells[Number(id.slice(1))]] : [];
    return [];
  }

  function movingCard() {
    if (!selection) return null;
    const cards = pileCards(selection.from);
    return cards[cards.length - (selection.count || 1)] || null;
  }

  function targets() {
    if (!selection) return new Set();
    return new Set(
      legal()
        .filter(
          (m) =>
            m.type === "move" &&
            m.from === selection.from &&
            (selection.auto || m.count === selection.count),
        )
        .map((m) => m.to),
    );
  }

  function select(pile, index) {
    const cards = pileCards(pile);
    if (!cards.length) {
      selection = null;
      return;
    }
    if (pile[0] === "t" && index !== undefined) {
      selection = { from: pile, count: cards.length - index, auto: false };
    } else if (pile[0] === "t") {
      const counts = legal()
        .filter((m) => m.type === "move" && m.from === pile)
        .map((m) => m.count);
      selection = { from: pile, count: counts.length ? Math.max(...counts) : 1, auto: true };
    } else {
      selection = { from: pile, count: 1, auto: false };
    }
  }

  function chooseMove(to) {
    const candidates = legal().filter(
      (m) => m.type === "move" && m.from === selection.from && m.to === to,
    );
    const exact = candidates.find((m) => m.count === selection.count);
    if (exact) return exact;
    if (selection.auto && candidates.length) {
      return candidates.reduce((a, b) => (b.count > a.count ? b : a));
    }
    // Not a legal move: the server says which rule it breaks, in the player's language.
    return { type: "move", from: selection.from, to, count: selection.count };
  }

  function activate(pile, index) {
    // A move whose answer never came must be retried (same key) before the next one.
    if (!playing() || busy || pending) return;
    message = null;
    if (pile === "s") {
      selection = null;
      send({ type: "deal" });
      return;
    }
    if (!selection) {
      if (pile === "f") return render();
      select(pile, index);
    } else if (selection.from === pile) {
      const count = index === undefined ? null : pileCards(pile).length - index;
      if (count && count !== selection.count) select(pile, index);
      else selection = null;
    } else {
      const move = chooseMove(pile);
      selection = null;
      send(move);
      return;
    }
    render();
  }

  async function send(move, retry = null) {
    if (busy || (pending && !retry)) return;
    const attempt = retry || { move, seq: play.seq, key: newKey() };
    busy = true;
    pending = attempt;
    render();
    try {
      const next = await api.move(play.id, attempt.seq, attempt.move, attempt.key);
      pending = null;
      message = null;
      setPlay(next);
    } catch (error) {
      if (error instanceof NetworkError) {
        message = { kind: "offline", text: t("connection_lost") };
      } else {
        pending = null;
        message = { kind: "error", text: problemText(error) };
        if (error instanceof ApiError && error.status === 409) await reload(false);
      }
    } finally {
      busy = false;
      render();
    }
  }

  function setPlay(next) {
    const finishedNow = play && play.status === "playing" && next.status !== "playing";
    play = next;
    if (selection && !pileCards(selection.from).length) selection = null;
    if (finishedNow || (next.status !== "playing" && !result)) lookUpRank();
  }

  async function lookUpRank() {
    result = { rank: null };
    if (!play.ranked || !play.daily) return;
    const options = Object.keys(play.options || {}).filter((k) => play.options[k]);
    try {
      const page = await api.board(play.preset, "daily", play.daily, { options, around: true });
      const mine = page.results.find((row) => row.username === api.username);
      result = { rank: mine ? mine.rank : null };
    } catch {
      result = { rank: null };
    }
    render();
  }

  async function reload(show = true) {
    try {
      setPlay(await api.play(playId));
    } catch (error) {
      if (show) message = { kind: "error", text: problemText(error) };
    }
    render();
  }

  function problemText(error) {
    if (error instanceof ApiError) return error.message;
    return t("something_wrong");
  }

  // --- rendering ---------------------------------------------------------------------------

  function toolbar() {
    const preset = app.presets[play.preset];
    const title = preset ? preset.title : play.preset;
    const badge = play.ranked
      ? h("span", { class: "badge ranked" }, t("ranked_on", { date: play.daily }))
      : h("span", { class: "badge" }, t("practice"));
    const foundation = Object.values(play.foundations).reduce(
      (sum, card) => sum + (card ? "A23456789TJQK".indexOf(card[0]) + 1 : 0),
      0,
    );
    return h(
      "div",
      { class: "play-head" },
      h("div", { class: "play-title" }, h("h2", {}, title), badge),
      h(
        "div",
        { class: "stats" },
        h("span", {}, t("moves_label"), " ", h("b", { class: "moves" }, String(play.score.moves))),
        h("span", {}, t("home_label"), " ", h("b", {}, `${foundation}/52`)),
        h("span", {}, t("time_label"), " ", h("b", { class: "clock" }, clock())),
      ),
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          {
            class: "btn",
            onclick: () => send({ type: "undo" }),
            disabled: !playing() || busy || play.seq === 0,
            title: play.ranked ? t("undo_rule_ranked") : t("undo_rule_practice"),
          },
          "↶ ",
          t("undo"),
        ),
        confirmResign
          ? [
              h("span", { class: "confirm" }, t("resign_confirm")),
              h(
                "button",
                {
                  class: "btn danger",
                  onclick: () => {
                    confirmResign = false;
                    send({ type: "resign" });
                  },
                },
                t("yes_resign"),
              ),
              h("button", { class: "btn", onclick: () => ((confirmResign = false), render()) }, t("no")),
            ]
          : h(
              "button",
              {
                class: "btn",
                disabled: !playing() || busy,
                onclick: () => ((confirmResign = true), render()),
              },
              "⚑ ",
              t("resign"),
            ),
        h(
          "button",
          { class: "btn ghost", onclick: () => ((showRules = !showRules), render()), "aria-expanded": String(showRules) },
          t("rules"),
        ),
      ),
    );
  }

  function clock() {
    const start = Date.parse(play.started_at);
    if (play.score.seconds !== null && play.score.seconds !== undefined) {
      return formatSeconds(play.score.seconds);
    }
    const end = play.finished_at ? Date.parse(play.finished_at) : Date.now();
    return formatSeconds(Math.max(0, (end - start) / 1000));
  }

  function rulesPanel() {
    const preset = app.presets[play.preset];
    const paragraphs = preset && preset.rules && preset.rules.length ? preset.rules : [preset ? preset.description : ""];
    return h(
      "div",
      { class: "panel rules-panel" },
      paragraphs.map((p) => h("p", {}, p)),
      h("p", { class: "undo-rule" }, play.ranked ? t("undo_rule_ranked") : t("undo_rule_practice")),
      h("p", { class: "keys" }, t("keys_help")),
    );
  }

  function messageBar() {
    if (pending && message && message.kind === "offline") {
      return h(
        "div",
        { class: "message offline", role: "alert" },
        message.text,
        " ",
        h("button", { class: "btn", onclick: () => send(pending.move, pending) }, t("retry")),
      );
    }
    if (message) return h("div", { class: `message ${message.kind}`, role: "alert" }, message.text);
    if (busy) return h("div", { class: "message info" }, t("sending"));
    if (playing()) {
      const hint = selection
        ? t("hint_target", { card: movingCard() ? cardText(movingCard()) : "" })
        : t("hint_select");
      return h("div", { class: "message hint" }, hint);
    }
    return h("div", { class: "message hint" }, t(`status_${play.status}`));
  }

  function resultPanel() {
    const s = play.score;
    const won = play.status === "won";
    const rankLine = play.ranked
      ? result && result.rank
        ? t("your_rank", { rank: result.rank })
        : t("rank_pending")
      : t("practice_unranked");
    return h(
      "div",
      { class: "overlay", role: "dialog", "aria-modal": "true" },
      h(
        "div",
        { class: `result ${won ? "won" : "lost"}` },
        h("div", { class: "result-cards" }, ["AS", "AH", "AD", "AC"].map((c) => cardEl(c))),
        h("h2", { class: "result-title" }, t(`result_${play.status}`)),
        h("p", { class: "rank" }, rankLine),
        h(
          "dl",
          { class: "score" },
          h("dt", {}, t("moves_label")),
          h("dd", { class: "score-moves" }, String(s.moves)),
          h("dt", {}, t("undos_label")),
          h("dd", {}, String(s.undos)),
          h("dt", {}, t("home_label")),
          h("dd", {}, `${s.foundation_cards}/52`),
          h("dt", {}, t("time_label")),
          h("dd", {}, formatSeconds(s.seconds)),
        ),
        h(
          "div",
          { class: "actions" },
          play.ranked
            ? h("a", { class: "btn primary", href: `#/boards/${play.preset}/daily` }, t("see_board"))
            : null,
          h("a", { class: "btn", href: "#/" }, t("nav_today")),
          h("button", { class: "btn ghost", onclick: () => ((dismissed = true), render()) }, t("view_table")),
        ),
      ),
    );
  }

  function render() {
    if (!play) return;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-pile]");
    const focusKey = focused ? [focused.dataset.pile, focused.dataset.suit || ""] : null;
    const table = renderTable(play, {
      interactive: playing(),
      selection,
      targets: targets(),
      targetSuit: movingCard() ? movingCard()[1] : null,
    });
    table.classList.toggle("busy", busy);
    clear(
      root,
      toolbar(),
      showRules ? rulesPanel() : null,
      messageBar(),
      table,
      !playing() && !dismissed ? resultPanel() : null,
    );
    root.dataset.seq = String(play.seq);
    root.dataset.status = play.status;
    if (focusKey) {
      const selector = `[data-pile="${focusKey[0]}"]${focusKey[1] ? `[data-suit="${focusKey[1]}"]` : ""}`;
      const again = root.querySelector(selector);
      if (again) again.focus({ preventScroll: true });
    }
  }

  // --- what the input module may do ----------------------------------------------------

  const detachInput = attachInput(root, {
    play: () => play,
    ready: () => playing() && !busy && !pending,
    activate,
    sendHome(pile) {
      const home = legal().find((m) => m.type === "move" && m.from === pile && m.to === "f");
      if (home) {
        selection = null;
        send(home);
      }
    },
    undo: () => play.seq > 0 && send({ type: "undo" }),
    cancel() {
      selection = null;
      confirmResign = false;
      render();
    },
    resize(delta) {
      if (!selection || selection.from[0] !== "t") return false;
      const size = pileCards(selection.from).length;
      const count = Math.min(Math.max(selection.count + delta, 1), size);
      selection = { ...selection, count, auto: false };
      render();
      return true;
    },
    pick(pile, index) {
      select(pile, index);
      if (selection) render();
      return Boolean(selection);
    },
    drop(pile) {
      if (pile && selection && pile !== selection.from) return activate(pile);
      selection = null;
      render();
    },
  });

  timer = setInterval(() => {
    const el = root.querySelector(".clock");
    if (el && play) el.textContent = clock();
  }, 1000);

  // A ranked daily's board, live beside the table while the player plays (live.js).
  const shell = h("div", { class: "play-shell" }, root);
  let board = null;

  clear(root, h("p", { class: "loading" }, t("loading")));
  api
    .play(playId)
    .then((doc) => {
      setPlay(doc);
      render();
      if (doc.ranked && doc.daily) {
        board = liveBoard(api, doc);
        shell.append(board.el);
      }
    })
    .catch((error) => {
      clear(root, h("div", { class: "message error" }, problemText(error)), h("a", { class: "btn", href: "#/" }, t("nav_today")));
    });

  return {
    el: shell,
    destroy() {
      clearInterval(timer);
      detachInput();
      if (board) board.close();
    },
  };
}
