// The session's life: a guest from the first visit (no form before the first card), "keep
// my progress" (linking the guest to a name and a password), signing out and deleting the
// account. The device's id and secret are ./device.js's.

import { ApiError } from "./api.js";
import { device, forgetDevice, sessionMode, setSessionMode } from "./device.js";
import { h } from "./dom.js";
import { problemMessage } from "./home.js";
import { t } from "./i18n.js";

// Sign the device's account in (a new guest the first time). A device the server refuses
// (its secret no longer matches, or it went with a deleted account) is replaced once.
export async function startDevice(app) {
  try {
    await app.api.signInDevice(device());
  } catch (error) {
    if (!(error instanceof ApiError) || ![401, 409].includes(error.status)) throw error;
    forgetDevice();
    await app.api.signInDevice(device());
  }
  setSessionMode("device");
}

// At start: the device's account unless the last session was a named sign-in or ended with
// a sign-out (then the form). False when the form should show.
export async function resumeSession(app) {
  const mode = sessionMode();
  if (mode === "named" || mode === "signed-out") return false;
  if (location.hash.startsWith("#/signin")) return false; // a link to the form: a name is coming
  try {
    await startDevice(app);
    return true;
  } catch {
    return false; // no guest sign-in on this server, or it is away: the form
  }
}

export async function signOut(app) {
  if (app.api.guest && !window.confirm(t("sign_out_guest_confirm"))) return;
  try {
    await app.api.logout();
  } catch {
    // the token dies with its lifetime anyway; this browser forgets it now
  }
  // The device would sign the same account in again: a new visit starts a new guest.
  forgetDevice();
  setSessionMode("signed-out");
  app.api.signOut();
}

function linkForm(app) {
  const status = h("div", { class: "message error", role: "alert", hidden: true });
  const username = h("input", { name: "username", autocomplete: "username", required: true, maxlength: 150 });
  const password = h("input", { name: "password", type: "password", autocomplete: "new-password", required: true, minlength: 8 });
  return h(
    "form",
    {
      class: "panel link",
      onsubmit: async (event) => {
        event.preventDefault();
        status.hidden = true;
        if (!username.value.trim() || !password.value) {
          status.textContent = t("fill_both");
          status.hidden = false;
          return;
        }
        try {
          await app.api.link(username.value.trim(), password.value);
          app.notice = { text: t("linked_as", { name: app.api.username }), on: "me" };
          app.signedIn();
        } catch (error) {
          status.textContent = problemMessage(error);
          status.hidden = false;
        }
      },
    },
    h("h2", {}, t("keep_progress")),
    h("p", { class: "muted" }, t("keep_progress_text")),
    h("label", {}, t("username"), username),
    h("label", {}, t("password"), password),
    status,
    h("div", { class: "actions" }, h("button", { class: "btn primary", type: "submit" }, t("keep_progress_button"))),
  );
}

function deleteForm(app) {
  const status = h("div", { class: "message error", role: "alert", hidden: true });
  const guest = app.api.guest;
  const password = guest
    ? null
    : h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  return h(
    "form",
    {
      class: "panel delete-account",
      onsubmit: async (event) => {
        event.preventDefault();
        status.hidden = true;
        if (password && !password.value) {
          status.textContent = t("delete_needs_password");
          status.hidden = false;
          return;
        }
        if (!window.confirm(t("delete_confirm"))) return;
        try {
          await app.api.deleteAccount(guest ? { device_secret: device().secret } : { password: password.value });
        } catch (error) {
          status.textContent = problemMessage(error);
          status.hidden = false;
          return;
        }
        forgetDevice();
        setSessionMode("signed-out");
        app.notice = { text: t("deleted"), on: "" };
        app.api.signOut();
        location.hash = "#/";
      },
    },
    h("h2", {}, t("delete_account")),
    h("p", { class: "muted" }, t(guest ? "delete_text_guest" : "delete_text")),
    password ? h("label", {}, t("current_password"), password) : null,
    status,
    h("div", { class: "actions" }, h("button", { class: "btn danger", type: "submit" }, t("delete_button"))),
  );
}

// Under the profile: linking for a guest, deletion for everyone.
export function accountPanels(app) {
  return [app.api.guest ? linkForm(app) : null, deleteForm(app)];
}
