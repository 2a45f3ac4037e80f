// The shell: header, navigation, language switch and a hash router.
//
//   #/                      today's deals, practice (a guest from the first visit)
//   #/signin                sign in or register by name (a guest's way back to a name)
//   #/play/<id>             a play
//   #/boards/<preset>/<kind> daily | weekly | all-time
//   #/me                    profile and streak
//   #/past/<date>/<preset>  a past day's deck and par solution, move by move
//   #/tournaments[/<id>]    the tournaments; one's live standing

import { accountPanels, resumeSession, signOut, startDevice } from "./account.js";
import { Api, apiBase } from "./api.js";
import { clear, h } from "./dom.js";
import { authPanel, todayScreen } from "./home.js";
import { LANGUAGES, detectLanguage, language, setLanguage, t } from "./i18n.js";
import { tournamentScreen, tournamentsScreen } from "./live.js";
import { playScreen } from "./play.js";
import { boardsScreen, pastScreen, profileScreen } from "./views.js";

const app = {
  api: new Api(apiBase(), () => language()),
  presets: {},
  screen: null,
  notice: null, // {text, on: screen name}: account linked, account deleted
  signedIn() {
    if (location.hash.startsWith("#/signin")) location.hash = "#/";
    route();
  },
  async playAsGuest() {
    await startDevice(app);
    app.signedIn();
  },
  accountPanels: () => accountPanels(app),
};
app.api.onSignOut = () => route();

const header = document.querySelector("header.top");
const main = document.querySelector("main");

async function loadPresets() {
  // Titles, descriptions and rules come in the player's language (Accept-Language).
  const data = await app.api.presets();
  app.presets = Object.fromEntries(data.presets.map((p) => [p.name, p]));
}

function renderHeader() {
  const path = location.hash.replace(/^#\/?/, "").split("/")[0];
  const link = (href, key, name) =>
    h("a", { href, class: path === name ? "active" : "", dataset: { nav: name || "today" } }, t(key));
  const picker = h(
    "select",
    {
      class: "language",
      "aria-label": t("language"),
      onchange: async (event) => {
        await setLanguage(event.target.value, true);
        await loadPresets().catch(() => {});
        route();
      },
    },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)),
  );
  clear(
    header,
    h("a", { class: "brand", href: "#/" }, h("span", { class: "logo", "aria-hidden": "true" }, "♠♥"), "Haven"),
    h(
      "nav",
      {},
      link("#/", "nav_today", ""),
      link("#/boards", "nav_boards", "boards"),
      app.api.signedIn ? link("#/me", "nav_profile", "me") : null,
      link("#/past", "nav_past", "past"),
      app.api.signedIn ? link("#/tournaments", "nav_tournaments", "tournaments") : null,
    ),
    h(
      "div",
      { class: "account" },
      picker,
      app.api.guest
        ? [
            h("a", { class: "keep-progress", href: "#/me" }, t("keep_progress")),
            h("a", { class: "sign-in", href: "#/signin", dataset: { action: "sign-in" } }, t("sign_in")),
          ]
        : null,
      app.api.signedIn
        ? h("button", { class: "btn ghost small", onclick: () => signOut(app), title: app.api.username }, t("sign_out"))
        : null,
    ),
  );
}

function route() {
  if (app.screen) app.screen.destroy();
  renderHeader();
  const [name, a, b] = location.hash.replace(/^#\/?/, "").split("/");
  const needsAccount = name === "play" || name === "me" || name === "tournaments";
  let screen;
  if (name === "signin" || (needsAccount && !app.api.signedIn)) {
    screen = { el: h("section", { class: "screen" }, authPanel(app)), destroy() {} };
  } else if (name === "play" && a) {
    screen = playScreen(app, a);
  } else if (name === "boards") {
    screen = boardsScreen(app, a, b);
  } else if (name === "me") {
    screen = profileScreen(app);
  } else if (name === "tournaments") {
    screen = a ? tournamentScreen(app, a) : tournamentsScreen(app);
  } else if (name === "past") {
    screen = pastScreen(app, a, b);
  } else {
    screen = todayScreen(app);
  }
  app.screen = screen;
  // A notice waits for its screen (a deletion re-renders the profile once before going
  // home), outside it: a screen redraws itself when its data arrives.
  let notice = null;
  if (app.notice && app.notice.on === (name || "")) {
    notice = h("div", { class: "message info", role: "status" }, app.notice.text);
    app.notice = null;
  }
  clear(main, notice, screen.el);
  document.title = `Haven · ${t(`title_${name === "signin" ? "today" : name || "today"}`)}`;
}

async function boot() {
  await setLanguage(detectLanguage());
  try {
    await loadPresets();
  } catch {
    clear(main, h("div", { class: "message error" }, t("api_unreachable")));
    return;
  }
  await resumeSession(app);
  window.addEventListener("hashchange", route);
  route();
  document.body.dataset.ready = "1";
}

boot();
