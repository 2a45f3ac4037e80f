// Boards, the player's profile and the past days' playback.

import { addDays, clear, formatSeconds, h, todayUtc } from "./dom.js";
import { problemMessage } from "./home.js";
import { t } from "./i18n.js";
import { describeMove } from "./play.js";
import { canReplay, positions } from "./replay.js";
import { renderTable } from "./table.js";

const KINDS = ["daily", "weekly", "all-time"];

function mondayUtc(isoDate) {
  const d = new Date(`${isoDate}T00:00:00Z`);
  return addDays(isoDate, -((d.getUTCDay() + 6) % 7));
}

function presetSelect(app, current, onchange) {
  return h(
    "select",
    { class: "preset-select", onchange: (e) => onchange(e.target.value), "aria-label": t("preset") },
    Object.keys(app.presets).map((n) => h("option", { value: n, selected: n === current }, app.presets[n].title)),
  );
}

function boardTable(kind, rows, me) {
  if (!rows.length) return h("p", { class: "muted" }, t("board_empty"));
  const daily = kind === "daily";
  return h(
    "table",
    { class: "board" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "#"),
        h("th", {}, t("player")),
        daily
          ? [h("th", {}, t("result")), h("th", {}, t("moves_label")), h("th", {}, t("time_label"))]
          : [h("th", {}, t("wins")), h("th", {}, t("points")), h("th", {}, t("plays"))],
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((r) =>
        h(
          "tr",
          { class: r.username === me ? "me" : "" },
          h("td", {}, String(r.rank)),
          h("td", {}, r.username),
          daily
            ? [
                h("td", {}, r.won ? `✔ ${t("won")}` : `${r.foundation_cards}/52`),
                h("td", {}, String(r.moves)),
                h("td", {}, formatSeconds(r.seconds)),
              ]
            : [h("td", {}, String(r.wins)), h("td", {}, String(r.points)), h("td", {}, String(r.plays))],
        ),
      ),
    ),
  );
}

export function boardsScreen(app, preset, kind) {
  preset = preset in app.presets ? preset : Object.keys(app.presets)[0];
  kind = KINDS.includes(kind) ? kind : "daily";
  const root = h("section", { class: "screen boards" });
  const go = (p, k) => (location.hash = `#/boards/${p}/${k}`);

  async function load() {
    const today = todayUtc();
    const period = kind === "daily" ? "today" : "current";
    const head = h(
      "div",
      { class: "section-head" },
      h("h2", {}, t("boards")),
      presetSelect(app, preset, (p) => go(p, kind)),
      h(
        "div",
        { class: "tabs", role: "tablist" },
        KINDS.map((k) =>
          h("a", { class: `tab${k === kind ? " active" : ""}`, href: `#/boards/${preset}/${k}`, role: "tab" }, t(`board_${k}`)),
        ),
      ),
    );
    clear(root, head, h("p", { class: "loading" }, t("loading")));
    try {
      const page = await app.api.board(preset, kind, period);
      const me = app.api.username;
      const parts = [head, h("h3", {}, t("top"), " · ", page.board.period === "all" ? t("board_all-time") : page.board.period), boardTable(kind, page.results, me)];
      // Around me: only asked for when we know there is a result of ours on this board.
      if (app.api.signedIn && !page.results.some((r) => r.username === me)) {
        const plays = (await app.api.plays()).results;
        const since = kind === "daily" ? today : kind === "weekly" ? mondayUtc(today) : "0000";
        const mine = plays.some(
          (p) => p.ranked && p.preset === preset && p.status !== "playing" && p.daily >= since &&
            !Object.values(p.options || {}).some(Boolean),
        );
        if (mine) {
          const around = await app.api.board(preset, kind, period, { around: true });
          parts.push(h("h3", {}, t("around_me")), boardTable(kind, around.results, me));
        }
      }
      clear(root, ...parts);
    } catch (error) {
      clear(root, head, h("div", { class: "message error" }, problemMessage(error)));
    }
  }
  load();
  return { el: root, destroy() {} };
}

export function profileScreen(app) {
  const root = h("section", { class: "screen profile" });
  clear(root, h("p", { class: "loading" }, t("loading")));
  app.api
    .me()
    .then((me) => {
      const stat = (label, value) => h("div", { class: "stat" }, h("b", {}, String(value)), h("span", {}, label));
      clear(
        root,
        h("div", { class: "section-head" }, h("h2", {}, me.username)),
        h(
          "div",
          { class: "stats-grid" },
          stat(t("current_streak"), me.current_streak),
          stat(t("best_streak"), me.best_streak),
          stat(t("plays"), me.plays),
          stat(t("wins"), me.wins),
          stat(t("win_rate"), `${Math.round((me.win_rate || 0) * 100)}%`),
        ),
        me.presets.length
          ? h(
              "table",
              { class: "board" },
              h("thead", {}, h("tr", {}, h("th", {}, t("preset")), h("th", {}, t("plays")), h("th", {}, t("wins")), h("th", {}, t("win_rate")))),
              h(
                "tbody",
                {},
                me.presets.map((p) =>
                  h(
                    "tr",
                    {},
                    h("td", {}, app.presets[p.preset] ? app.presets[p.preset].title : p.preset),
                    h("td", {}, String(p.plays)),
                    h("td", {}, String(p.wins)),
                    h("td", {}, `${Math.round(p.win_rate * 100)}%`),
                  ),
                ),
              ),
            )
          : h("p", { class: "muted" }, t("no_ranked_yet")),
        me.best_ranks.length
          ? [
              h("h3", {}, t("best_ranks")),
              h("ul", {}, me.best_ranks.map((r) => h("li", {}, `${r.board}: #${r.rank} (${r.date})`))),
            ]
          : null,
        app.accountPanels(),
      );
    })
    .catch((error) => clear(root, h("div", { class: "message error" }, problemMessage(error))));
  return { el: root, destroy() {} };
}

export function pastScreen(app, date, preset) {
  const yesterday = addDays(todayUtc(), -1);
  date = /^\d{4}-\d{2}-\d{2}$/.test(date || "") ? date : yesterday;
  const root = h("section", { class: "screen past" });
  let timer = null;
  const stop = () => {
    clearInterval(timer);
    timer = null;
  };

  async function load() {
    const picker = h("input", {
      type: "date",
      value: date,
      max: yesterday,
      "aria-label": t("date"),
      onchange: (e) => e.target.value && (location.hash = `#/past/${e.target.value}/${preset || ""}`),
    });
    const head = h("div", { class: "section-head" }, h("h2", {}, t("past_days")), picker);
    clear(root, head, h("p", { class: "loading" }, t("loading")));
    let day;
    try {
      day = await app.api.daily(date);
    } catch (error) {
      clear(root, head, h("div", { class: "message error" }, problemMessage(error)));
      return;
    }
    const names = Object.keys(day.deals).filter(canReplay);
    if (!names.length) {
      clear(root, head, h("p", { class: "muted" }, t("no_deal")));
      return;
    }
    preset = names.includes(preset) ? preset : names[0];
    const deal = day.deals[preset];
    const tabs = h(
      "div",
      { class: "tabs" },
      names.map((n) =>
        h("a", { class: `tab${n === preset ? " active" : ""}`, href: `#/past/${date}/${n}` }, app.presets[n] ? app.presets[n].title : n),
      ),
    );
    if (!deal.deck || !deal.solution || !deal.solution.length) {
      // No deck yet: the day's ranked plays may still move (its grace after midnight).
      clear(root, head, tabs, h("p", { class: "muted" }, t(deal.deck ? "no_solution" : "not_published")));
      return;
    }
    const states = positions(preset, deal.deck, deal.solution);
    let at = 0;
    const board = h("div", { class: "replay-board" });
    const caption = h("div", { class: "message hint replay-caption" });
    const show = (k) => {
      at = Math.max(0, Math.min(states.length - 1, k));
      clear(board, renderTable(states[at], { interactive: false }));
      caption.textContent =
        at === 0
          ? t("replay_start", { par: deal.par ?? deal.solution.length })
          : `${t("move_of", { k: at, n: deal.solution.length })}: ${describeMove(deal.solution[at - 1])}`;
      root.dataset.at = String(at);
    };
    const button = (label, title, action) =>
      h("button", { class: "btn", title, "aria-label": title, onclick: () => (stop(), action()) }, label);
    const play = h("button", {
      class: "btn primary",
      onclick: () => {
        if (timer) return stop();
        if (at === states.length - 1) show(0);
        timer = setInterval(() => (at < states.length - 1 ? show(at + 1) : stop()), 450);
      },
    }, "▶ ", t("autoplay"));
    clear(
      root,
      head,
      tabs,
      h("p", { class: "muted" }, t("past_text", { verdict: t(`verdict_${deal.verdict}`), par: deal.par ?? "–" })),
      h(
        "div",
        { class: "replay-controls" },
        button("«", t("first"), () => show(0)),
        button("◀", t("previous"), () => show(at - 1)),
        play,
        button("▶", t("next"), () => show(at + 1)),
        button("»", t("last"), () => show(states.length - 1)),
      ),
      caption,
      board,
    );
    show(0);
  }
  load();
  return { el: root, destroy: stop };
}
