// Live updates (docs/live.md): a stream opened with a ticket; when the server says
// `fallback` (Redis away, or a server that cannot stream, as under `make run`), the same
// updates by polling the URL it names.
//
//   follow(api, path, { event, onUpdate, fromPoll }) -> { close() }
//
// `event` is the stream's update event (board, standings); `onUpdate(data)` gets each one
// (and the snapshot); `fromPoll(document)` turns the polled answer into the same shape.

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

export function follow(api, path, { event, onUpdate, fromPoll }) {
  let source = null;
  let timer = null;
  let closed = false;

  function poll(url, seconds) {
    const tick = async () => {
      if (closed) return;
      try {
        onUpdate(fromPoll(await api.get(url)), "poll");
      } catch {
        // the next tick tries again
      }
      timer = setTimeout(tick, seconds * 1000);
    };
    tick();
  }

  api
    .streamUrl(path)
    .then((url) => {
      if (closed) return;
      source = new EventSource(url);
      const take = (e) => onUpdate(JSON.parse(e.data), "stream");
      source.addEventListener("snapshot", take);
      source.addEventListener(event, take);
      source.addEventListener("fallback", (e) => {
        const { poll: url, every_seconds: seconds } = JSON.parse(e.data);
        source.close();
        poll(url, seconds);
      });
    })
    .catch(() => {});

  return {
    close() {
      closed = true;
      if (source) source.close();
      clearTimeout(timer);
    },
  };
}

function rankRows(rows, me, cells) {
  return h(
    "table",
    { class: "board live" },
    h(
      "tbody",
      {},
      rows.map((row) => h("tr", { class: row.username === me ? "me" : "" }, h("td", {}, String(row.rank)), h("td", {}, row.username), cells(row))),
    ),
  );
}

// The board of a ranked play's day, live beside the table while the player plays.
export function liveBoard(api, play) {
  const el = h("aside", { class: "live-board", "aria-live": "polite" });
  const options = Object.entries(play.options || {})
    .filter(([, on]) => on)
    .map(([name]) => name);
  const query = options.length ? `?options=${options.join(",")}` : "";
  const path = `/api/v1/leaderboards/${play.preset}/daily/${play.daily}/stream${query}`;
  const show = (data) => {
    const top = data.top || [];
    clear(
      el,
      h("h3", {}, t("live_board")),
      top.length
        ? rankRows(top, api.username, (r) => [h("td", {}, r.won ? "✓" : `${r.foundation_cards}/52`)])
        : h("p", { class: "muted" }, t("board_empty")),
      data.me ? h("p", { class: "my-rank" }, t("live_rank", { n: data.me })) : null,
    );
  };
  show({ top: [] });
  const live = follow(api, path, {
    event: "board",
    onUpdate: show,
    fromPoll: (page) => ({ top: (page.results || []).slice(0, 10) }),
  });
  return { el, close: () => live.close() };
}

// #/tournaments: the list, with a join button while joins are open.
export function tournamentsScreen(app) {
  const root = h("section", { class: "screen tournaments" }, h("p", { class: "loading" }, t("loading")));
  const load = async () => {
    const { results } = await app.api.tournaments();
    clear(
      root,
      h("h2", {}, t("tournaments")),
      results.length
        ? h(
            "ul",
            { class: "tournament-list" },
            results.map((x) =>
              h(
                "li",
                { dataset: { tournament: String(x.id) } },
                h("a", { href: `#/tournaments/${x.id}` }, x.name),
                " · ",
                app.presets[x.preset] ? app.presets[x.preset].title : x.preset,
                " · ",
                h("span", { class: "status" }, t(`tournament_${x.status}`)),
                " · ",
                t("entrants", { n: x.entrants }),
                x.joined
                  ? h("span", { class: "badge joined" }, t("joined"))
                  : h("button", { class: "btn small join", onclick: () => join(x.id) }, t("join")),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("no_tournaments")),
    );
  };
  const join = async (id) => {
    try {
      await app.api.joinTournament(id);
      location.hash = `#/tournaments/${id}`;
    } catch (error) {
      root.prepend(h("div", { class: "message error" }, (error.data && error.data.detail) || String(error)));
    }
  };
  load().catch((error) => clear(root, h("div", { class: "message error" }, String(error))));
  return { el: root, destroy() {} };
}

// #/tournaments/<id>: the standing, live while it runs; a seeded one's own deal to play.
export function tournamentScreen(app, id) {
  const root = h("section", { class: "screen tournament" }, h("p", { class: "loading" }, t("loading")));
  const standings = h("div", { class: "standings" });
  let live = null;
  const show = (data) => {
    const rows = (data.standings || []).filter((p) => p.rank);
    clear(
      standings,
      rows.length
        ? rankRows(rows, app.api.username, (p) => [h("td", {}, String(p.points)), h("td", {}, String(p.wins))])
        : h("p", { class: "muted" }, t("board_empty")),
    );
  };
  // A seeded tournament's own deal is played from here: a ranked play, then the play screen.
  const playable = (x) => x.deal_rule === "seeded" && x.joined && x.status === "running";
  const play = async (tournamentId) => {
    try {
      const started = await app.api.playTournament(tournamentId);
      location.hash = `#/play/${started.id}`;
    } catch (error) {
      root.prepend(h("div", { class: "message error" }, (error.data && error.data.detail) || String(error)));
    }
  };
  // Joining re-reads the tournament in place: a reload would sign the player out (the
  // token lives in the page only).
  const join = async () => {
    try {
      await app.api.joinTournament(id);
      if (live) live.close();
      live = null;
      await load();
    } catch (error) {
      root.prepend(h("div", { class: "message error" }, (error.data && error.data.detail) || String(error)));
    }
  };
  const load = () =>
    app.api.tournament(id).then((x) => {
      clear(
        root,
        h("h2", {}, x.name),
        h("p", { class: "status" }, t(`tournament_${x.status}`), " · ", t("entrants", { n: x.entrants })),
        x.joined ? null : h("button", { class: "btn join", onclick: join }, t("join")),
        playable(x) ? h("button", { class: "btn primary play-tournament", onclick: () => play(x.id) }, t("play_tournament")) : null,
        h("h3", {}, t("standings")),
        standings,
      );
      show(x);
      if (x.status === "running") {
        live = follow(app.api, `/api/v1/tournaments/${id}/stream`, {
          event: "standings",
          onUpdate: show,
          fromPoll: (doc) => doc,
        });
      }
    });
  load().catch((error) => clear(root, h("div", { class: "message error" }, String(error))));
  return { el: root, destroy: () => live && live.close() };
}
