// Signing in, today's six daily deals and starting a play (ranked or practice).

import { ApiError } from "./api.js";
import { setSessionMode } from "./device.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

export function problemMessage(error) {
  if (!(error instanceof ApiError)) return t("connection_lost_short");
  const fields = error.problem.errors;
  if (fields && typeof fields === "object") {
    const lines = Object.entries(fields).flatMap(([name, msgs]) =>
      (Array.isArray(msgs) ? msgs : [msgs]).map((m) => (name === "non_field_errors" ? m : `${name}: ${m}`)),
    );
    if (lines.length) return `${error.message} ${lines.join(" ")}`.trim();
  }
  return error.message;
}

export function authPanel(app) {
  const status = h("div", { class: "message error", role: "alert", hidden: true });
  const username = h("input", { name: "username", autocomplete: "username", required: true, maxlength: 150 });
  const password = h("input", {
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
    minlength: 8,
  });
  async function submit(kind) {
    status.hidden = true;
    if (!username.value || !password.value) {
      status.textContent = t("fill_both");
      status.hidden = false;
      return;
    }
    try {
      if (kind === "register") await app.api.register(username.value.trim(), password.value);
      else await app.api.login(username.value.trim(), password.value);
      setSessionMode("named"); // a reload asks for the password again
      app.signedIn();
    } catch (error) {
      status.textContent = problemMessage(error);
      status.hidden = false;
    }
  }
  const form = h(
    "form",
    {
      class: "panel auth",
      onsubmit: (event) => {
        event.preventDefault();
        submit(event.submitter && event.submitter.value === "register" ? "register" : "login");
      },
    },
    h("h2", {}, t("welcome")),
    h("p", { class: "muted" }, t("welcome_text")),
    h("label", {}, t("username"), username),
    h("label", {}, t("password"), password),
    status,
    h(
      "div",
      { class: "actions" },
      h("button", { class: "btn primary", type: "submit", name: "kind", value: "login" }, t("sign_in")),
      h("button", { class: "btn", type: "submit", name: "kind", value: "register" }, t("register")),
      app.api.signedIn
        ? null
        : h(
            "button",
            {
              class: "btn ghost",
              type: "button",
              dataset: { action: "guest" },
              onclick: () => app.playAsGuest().catch((error) => {
                status.textContent = problemMessage(error);
                status.hidden = false;
              }),
            },
            t("play_as_guest"),
          ),
    ),
    h("p", { class: "muted small" }, t("tokens_note")),
  );
  return form;
}

function verdictBadge(verdict) {
  return h("span", { class: `badge verdict-${verdict}` }, t(`verdict_${verdict}`));
}

function playedLine(play) {
  if (!play) return h("span", { class: "played no" }, t("not_played"));
  if (play.status === "playing") return h("span", { class: "played going" }, t("in_progress", { n: play.score.moves }));
  if (play.status === "won") return h("span", { class: "played won" }, t("won_in", { n: play.score.moves }));
  return h("span", { class: "played lost" }, t(`played_${play.status}`, { n: play.score.foundation_cards }));
}

export function todayScreen(app) {
  // The sign-in form stays in place for the screen's life (outside the part redrawn when
  // the deals arrive): a field taken out of the page, even for a moment, loses its focus
  // and the keys typed meanwhile.
  const auth = app.api.signedIn ? null : authPanel(app);
  const content = h("div", { class: "today-content" });
  const root = h("section", { class: "screen today" }, auth, content);
  const notice = h("div", { class: "message error", role: "alert", hidden: true });

  async function start(body, button) {
    notice.hidden = true;
    if (!app.api.signedIn) {
      notice.textContent = t("sign_in_first");
      notice.hidden = false;
      return;
    }
    if (button) button.disabled = true;
    try {
      const play = await app.api.start(body);
      location.hash = `#/play/${play.id}`;
    } catch (error) {
      notice.textContent = problemMessage(error);
      notice.hidden = false;
      if (button) button.disabled = false;
    }
  }

  function dealCard(name, deal, date, played) {
    const preset = app.presets[name];
    const rules = preset.rules && preset.rules.length ? preset.rules : [preset.description];
    let action;
    if (played && played.status === "playing") {
      action = h("a", { class: "btn primary", href: `#/play/${played.id}` }, t("resume"));
    } else if (played) {
      action = [
        h("a", { class: "btn", href: `#/play/${played.id}` }, t("view_play")),
        h("a", { class: "btn ghost", href: `#/boards/${name}/daily` }, t("board")),
      ];
    } else if (deal) {
      action = h(
        "button",
        { class: "btn primary", onclick: (e) => start({ preset: name, daily: date }, e.currentTarget) },
        t("play_ranked"),
      );
    } else {
      action = h("span", { class: "muted" }, t("no_deal"));
    }
    return h(
      "article",
      { class: "deal-card", dataset: { preset: name } },
      h("div", { class: "deal-head" }, h("h3", {}, preset.title), deal ? verdictBadge(deal.verdict) : null),
      h(
        "div",
        { class: "deal-meta" },
        h("span", {}, t("par"), " ", h("b", {}, deal && deal.par !== null ? String(deal.par) : "–")),
        app.api.signedIn ? playedLine(played) : null,
      ),
      h("details", { class: "rules" }, h("summary", {}, t("rules")), rules.map((p) => h("p", {}, p))),
      h("div", { class: "actions" }, action),
    );
  }

  function practiceForm() {
    const names = Object.keys(app.presets);
    const preset = h("select", { name: "preset" }, names.map((n) => h("option", { value: n }, app.presets[n].title)));
    const source = h(
      "select",
      { name: "source" },
      h("option", { value: "seed" }, t("seed")),
      h("option", { value: "pysol_deal" }, t("pysol_number")),
    );
    const number = h("input", { name: "number", type: "number", min: 0, step: 1, placeholder: t("random") });
    const options = h("div", { class: "options" });
    function showOptions() {
      clear(
        options,
        Object.keys(app.presets[preset.value].options || {}).map((opt) =>
          h("label", { class: "check" }, h("input", { type: "checkbox", name: opt }), t(`option_${opt}`)),
        ),
      );
    }
    preset.addEventListener("change", showOptions);
    showOptions();
    return h(
      "form",
      {
        class: "panel practice",
        onsubmit: (event) => {
          event.preventDefault();
          const body = { preset: preset.value };
          const value = number.value.trim();
          if (source.value === "seed") body.seed = value ? Number(value) : Math.floor(Math.random() * 2 ** 31);
          else body.pysol_deal = value ? Number(value) : 1 + Math.floor(Math.random() * 1000000);
          const chosen = [...options.querySelectorAll("input:checked")].map((i) => i.name);
          if (chosen.length) body.options = Object.fromEntries(chosen.map((o) => [o, true]));
          start(body, event.submitter);
        },
      },
      h("h2", {}, t("practice")),
      h("p", { class: "muted" }, t("practice_text")),
      h("div", { class: "row" }, h("label", {}, t("preset"), preset), h("label", {}, t("deal_by"), source), h("label", {}, t("number"), number)),
      options,
      h("div", { class: "actions" }, h("button", { class: "btn primary", type: "submit" }, t("start_practice"))),
    );
  }

  async function load() {
    clear(content, h("p", { class: "loading" }, t("loading_deals")));
    let daily = null;
    let plays = [];
    try {
      [daily, plays] = await Promise.all([
        app.api.daily("today"),
        app.api.signedIn ? app.api.plays().then((page) => page.results) : Promise.resolve([]),
      ]);
    } catch (error) {
      notice.textContent = problemMessage(error);
      notice.hidden = false;
    }
    const date = daily ? daily.date : null;
    const ranked = {};
    for (const play of plays) {
      if (play.ranked && play.daily === date && !ranked[play.preset]) ranked[play.preset] = play;
    }
    const unfinished = plays.filter((p) => p.status === "playing" && !(p.ranked && p.daily === date));
    clear(
      content,
      notice,
      h(
        "div",
        { class: "section-head" },
        h("h2", {}, t("todays_deals")),
        date ? h("span", { class: "muted" }, t("utc_day", { date })) : null,
      ),
      daily
        ? h(
            "div",
            { class: "deals" },
            Object.keys(app.presets).map((name) => dealCard(name, daily.deals[name], date, ranked[name])),
          )
        : null,
      unfinished.length
        ? h(
            "div",
            { class: "panel unfinished" },
            h("h2", {}, t("unfinished")),
            h(
              "ul",
              {},
              unfinished.map((p) =>
                h(
                  "li",
                  {},
                  h("a", { href: `#/play/${p.id}` }, `${app.presets[p.preset] ? app.presets[p.preset].title : p.preset}`),
                  " ",
                  h("span", { class: "muted" }, `${p.ranked ? t("ranked") : t("practice")} · ${t("moves_n", { n: p.score.moves })}`),
                ),
              ),
            ),
          )
        : null,
      practiceForm(),
    );
  }

  load();
  return { el: root, destroy() {} };
}
