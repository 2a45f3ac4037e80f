// Drawing a play's visible state (the API's play document) as a card table.
//
// Every pile is an element with data-pile (t0…t9, c0…c3, f, w, s) and every face-up card
// of a column carries data-index (its place in the column's "up" list), so the play screen
// can turn a tap, a drop or a key into a move without knowing the markup.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
const SUITS = ["S", "H", "D", "C"];

export function rankLabel(card) {
  return card[0] === "T" ? "10" : card[0];
}

export function cardText(card) {
  return rankLabel(card) + SUIT_SYMBOL[card[1]];
}

export function cardEl(card, extra = {}) {
  const suit = SUIT_SYMBOL[card[1]];
  const colour = RED.has(card[1]) ? "red" : "black";
  return h(
    "div",
    {
      class: `card ${colour}${extra.class ? ` ${extra.class}` : ""}`,
      dataset: { card, ...(extra.dataset || {}) },
      style: extra.style,
      title: t(`rank_${card[0]}`) + " " + t(`suit_${card[1]}`),
    },
    h("span", { class: "corner" }, h("b", {}, rankLabel(card)), h("i", {}, suit)),
    h("span", { class: "pip" }, suit),
  );
}

function backEl(style, label) {
  return h("div", { class: "card back", style, dataset: label ? { down: label } : {} });
}

function slot(label, extraClass = "") {
  return h("div", { class: `slot ${extraClass}` }, label);
}

function pileAttrs(id, label, ui, extraClass = "") {
  const classes = ["pile", extraClass];
  if (ui.targets && ui.targets.has(id)) classes.push("target");
  if (ui.selection && ui.selection.from === id) classes.push("source");
  return {
    class: classes.filter(Boolean).join(" "),
    dataset: { pile: id },
    tabindex: ui.interactive ? "0" : null,
    role: ui.interactive ? "button" : null,
    "aria-label": label,
  };
}

function column(play, index, ui) {
  const id = `t${index}`;
  const { down, up } = play.tableau[index];
  const sel = ui.selection && ui.selection.from === id ? ui.selection : null;
  const firstSelected = sel ? up.length - (sel.count || 1) : Infinity;
  const cards = [];
  for (let i = 0; i < down; i++) {
    cards.push(
      backEl({ top: `calc(var(--dg) * ${i})` }, i === 0 ? String(down) : null),
    );
  }
  // Long columns squeeze their face-up cards so the table stays on screen.
  const gap = up.length > 11 ? "var(--ug-tight)" : "var(--ug)";
  up.forEach((card, i) => {
    cards.push(
      cardEl(card, {
        class: i >= firstSelected ? "selected" : "",
        dataset: { index: String(i) },
        style: { top: `calc(var(--dg) * ${down} + ${gap} * ${i})` },
      }),
    );
  });
  if (!down && !up.length) cards.push(slot(ui.emptyLabel || ""));
  const height = `calc(var(--ch) + var(--dg) * ${down} + ${gap} * ${Math.max(up.length - 1, 0)})`;
  const label = t("column_n", { n: index + 1 }) + (down ? `, ${t("face_down_n", { n: down })}` : "");
  const el = h("div", pileAttrs(id, label, ui, "column"), cards);
  el.style.height = height;
  return el;
}

function single(id, card, label, ui, extraClass, emptyText = "") {
  const sel = ui.selection && ui.selection.from === id;
  return h(
    "div",
    pileAttrs(id, label, ui, extraClass),
    card ? cardEl(card, { class: sel ? "selected" : "" }) : slot(emptyText),
  );
}

export function renderTable(play, ui = {}) {
  const columns = play.tableau.length;
  const hasCells = Array.isArray(play.cells);
  const hasWaste = Array.isArray(play.waste);
  const hasStock = !hasCells;
  const top = [];

  if (hasStock) {
    const stock = h(
      "div",
      pileAttrs("s", t("stock_n", { n: play.stock }), ui, `stock${play.stock ? "" : " empty"}`),
      play.stock ? backEl({}, null) : slot("∅"),
      h("span", { class: "count" }, String(play.stock)),
    );
    top.push(stock);
  }
  if (hasWaste) {
    const topCard = play.waste.length ? play.waste[play.waste.length - 1] : null;
    const waste = single("w", topCard, t("waste"), ui, "waste");
    if (play.waste.length > 1) waste.append(h("span", { class: "count" }, String(play.waste.length)));
    top.push(waste);
  }
  if (hasCells) {
    play.cells.forEach((card, i) => {
      top.push(single(`c${i}`, card, t("cell_n", { n: i + 1 }), ui, "cell"));
    });
  }
  const foundations = SUITS.map((suit, i) => {
    const card = play.foundations[suit];
    const el = h(
      "div",
      pileAttrs("f", t("foundation_of", { suit: t(`suit_${suit}`) }), ui, "foundation"),
      card ? cardEl(card) : slot(SUIT_SYMBOL[suit], RED.has(suit) ? "red" : ""),
    );
    el.dataset.suit = suit;
    el.style.gridColumn = String(columns - 3 + i); // above the last four columns
    // Only the moving card's own suit pile lights up as a target.
    if (ui.targetSuit && ui.targetSuit !== suit) el.classList.remove("target");
    return el;
  });
  top.push(...foundations);

  const tableau = [];
  for (let i = 0; i < columns; i++) tableau.push(column(play, i, ui));
  return h(
    "div",
    { class: `table cols-${columns}`, style: { "--cols": String(columns) } },
    h("div", { class: "top-row" }, top),
    h("div", { class: "tableau" }, tableau),
  );
}
