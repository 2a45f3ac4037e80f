// The UI's own strings: English always loaded (the fallback), German or Russian on demand.
// The language is the one chosen here before, else the browser's first supported one.

import en from "./lang/en.js";

export const LANGUAGES = { en: "English", de: "Deutsch", ru: "Русский" };
const STORAGE_KEY = "haven.language";

let current = "en";
let table = en;

export function detectLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    // storage may be off (private mode): the browser's languages decide
  }
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export async function setLanguage(language, remember = false) {
  if (!(language in LANGUAGES)) language = "en";
  table = language === "en" ? en : (await import(`./lang/${language}.js`)).default;
  current = language;
  document.documentElement.lang = language;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, language);
    } catch {
      // not remembered: fine
    }
  }
}

export const language = () => current;

// t("moves_n", {n: 3}) → the string with {n} filled in; a missing key falls back to English.
export function t(key, vars = {}) {
  let text = table[key] ?? en[key] ?? key;
  if (typeof text === "function") text = text(vars);
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

// Russian plurals need three forms: plural(n, ["ход", "хода", "ходов"]).
export function slavicPlural(n, [one, few, many]) {
  const d = n % 10;
  const dd = n % 100;
  if (d === 1 && dd !== 11) return one;
  if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return few;
  return many;
}
