// The Haven API as a browser client sees it: the same calls a mobile app makes.
//
// Tokens live in this module's memory only (never in storage): a reload signs a guest (or
// a device linked to a named account) in again with the device's id and secret
// (./device.js), and asks a named player who signed in by name for the password. A 401 is answered once by exchanging the refresh token for a new access token.
// POSTs that change something carry an Idempotency-Key; when the connection drops, the
// request is sent again with the same key, so the server applies it at most once.

export class ApiError extends Error {
  // A problem document (RFC 9457): status, code, title and detail (in the player's language
  // when the server speaks it).
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.code = problem.code || "";
  }
}

export class NetworkError extends Error {
  // The request may or may not have reached the server; retry it with the same key.
  constructor(cause) {
    super("network");
    this.cause = cause;
  }
}

const RETRY_DELAYS_MS = [250, 800, 2000];

export function newKey() {
  // crypto.randomUUID needs a secure context; getRandomValues works everywhere.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function apiBase() {
  // <meta name="haven-api" content="https://api.example"> or ?api=… on the page's URL;
  // empty: the API is on this page's origin.
  const fromQuery = new URLSearchParams(location.search).get("api");
  const meta = document.querySelector('meta[name="haven-api"]');
  return (fromQuery || (meta && meta.content) || "").replace(/\/+$/, "");
}

export class Api {
  constructor(base, language) {
    this.base = base;
    this.language = language; // a function: the UI's language, sent as Accept-Language
    this.access = null;
    this.refreshToken = null;
    this.username = null;
    this.guest = false;
    this.onSignOut = () => {};
  }

  get signedIn() {
    return this.access !== null;
  }

  async fetchJson(method, path, { body, key, auth = true } = {}) {
    const headers = { Accept: "application/json", "Accept-Language": this.language() };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["Idempotency-Key"] = key;
    if (auth && this.access) headers.Authorization = `Bearer ${this.access}`;
    let response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch (error) {
      throw new NetworkError(error);
    }
    let data = null;
    const text = await response.text().catch(() => "");
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = { detail: text.slice(0, 200) };
      }
    }
    if (!response.ok) throw new ApiError(response.status, data || {});
    return data;
  }

  // One call with the token refreshed once on a 401.
  async call(method, path, options = {}) {
    try {
      return await this.fetchJson(method, path, options);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401 && this.refreshToken && options.auth !== false) {
        await this.refresh();
        return this.fetchJson(method, path, options);
      }
      throw error;
    }
  }

  // A POST that changes state: the same Idempotency-Key on every attempt.
  async post(path, body, key = newKey()) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call("POST", path, { body, key });
      } catch (error) {
        if (!(error instanceof NetworkError) || attempt >= RETRY_DELAYS_MS.length) {
          if (error instanceof NetworkError) error.key = key;
          throw error;
        }
        await sleep(RETRY_DELAYS_MS[attempt]);
      }
    }
  }

  async refresh() {
    try {
      const data = await this.fetchJson("POST", "/api/v1/auth/token/refresh", {
        body: { refresh: this.refreshToken },
        auth: false,
      });
      this.access = data.access;
      if (data.refresh) this.refreshToken = data.refresh;
    } catch (error) {
      if (error instanceof ApiError) this.signOut();
      throw error;
    }
  }

  signIn(username, tokens, guest = false) {
    this.username = username;
    this.access = tokens.access;
    this.refreshToken = tokens.refresh;
    this.guest = guest;
  }

  signOut() {
    this.access = this.refreshToken = this.username = null;
    this.guest = false;
    this.onSignOut();
  }

  // A device's account: a new guest the first time, the same account (a guest, or the
  // named account it was linked to) with the same id and secret afterwards.
  async signInDevice(device) {
    const data = await this.fetchJson("POST", "/api/v1/auth/guest", {
      body: { device_id: device.id, device_secret: device.secret },
      auth: false,
    });
    this.signIn(data.username, data, data.guest === true);
  }

  // "Keep my progress": the guest gets a name and a password, with every play kept.
  async link(username, password) {
    const data = await this.call("POST", "/api/v1/auth/link", { body: { username, password } });
    this.signIn(data.username || username, data, false);
  }

  // Revokes the refresh token on the server; signed out here whatever the answer.
  async logout() {
    const refresh = this.refreshToken;
    try {
      if (refresh) await this.fetchJson("POST", "/api/v1/auth/logout", { body: { refresh } });
    } finally {
      this.access = this.refreshToken = this.username = null;
      this.guest = false;
    }
  }

  // ``confirmation``: {password} or, for a guest, {device_secret}.
  deleteAccount(confirmation) {
    return this.call("DELETE", "/api/v1/players/me", { body: confirmation });
  }

  async register(username, password) {
    const data = await this.fetchJson("POST", "/api/v1/auth/register", {
      body: { username, password },
      auth: false,
    });
    this.signIn(data.username || username, data);
  }

  async login(username, password) {
    const data = await this.fetchJson("POST", "/api/v1/auth/token", {
      body: { username, password },
      auth: false,
    });
    this.signIn(username, data);
  }

  presets() {
    return this.call("GET", "/api/v1/presets", { auth: false });
  }

  daily(date) {
    return this.call("GET", `/api/v1/daily/${date}`, { auth: false });
  }

  plays() {
    return this.call("GET", "/api/v1/plays?page_size=100");
  }

  play(id) {
    return this.call("GET", `/api/v1/plays/${id}`);
  }

  moveLog(id) {
    return this.call("GET", `/api/v1/plays/${id}/moves`);
  }

  start(body, key) {
    return this.post("/api/v1/plays", body, key);
  }

  move(id, seq, move, key) {
    return this.post(`/api/v1/plays/${id}/moves`, { seq, move }, key);
  }

  board(preset, kind, period, { options = [], around = false } = {}) {
    const path =
      kind === "all-time"
        ? `/api/v1/leaderboards/${preset}/all-time`
        : `/api/v1/leaderboards/${preset}/${kind}/${period}`;
    const query = new URLSearchParams();
    if (options.length) query.set("options", options.join(","));
    if (around) {
      query.set("around", "me");
      query.set("n", "3");
    } else {
      query.set("page_size", "20");
    }
    return this.call("GET", `${path}?${query}`, { auth: this.signedIn });
  }

  me() {
    return this.call("GET", "/api/v1/players/me");
  }

  // Live streams (docs/live.md): EventSource cannot send the Bearer header, so a short-lived
  // ticket goes in the stream's URL.
  async streamUrl(path) {
    const { ticket } = await this.post("/api/v1/streams/tickets");
    return `${this.base}${path}${path.includes("?") ? "&" : "?"}ticket=${encodeURIComponent(ticket)}`;
  }

  get(path) {
    return this.call("GET", path);
  }

  tournaments() {
    return this.call("GET", "/api/v1/tournaments");
  }

  tournament(id) {
    return this.call("GET", `/api/v1/tournaments/${id}`);
  }

  joinTournament(id) {
    return this.post(`/api/v1/tournaments/${id}/join`);
  }

  // A ranked play of a seeded tournament's own deal (docs/tournaments.md).
  playTournament(id) {
    return this.post(`/api/v1/tournaments/${id}/plays`);
  }
}
