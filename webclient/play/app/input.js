// Turning taps, clicks, a mouse drag and keys into the play screen's actions.
//
// Tap (or click) a card, then a target; double-click sends a card home; with a mouse, drag
// a card (and the cards on it) onto a pile; or use the keys listed in the Rules panel.
// `game` is the play screen's side: play(), ready(), activate(pile, index), sendHome(pile),
// undo(), cancel(), resize(delta), pick(pile, index) and drop(pile).

import { h } from "./dom.js";

const KEY_PILES = { 1: "t0", 2: "t1", 3: "t2", 4: "t3", 5: "t4", 6: "t5", 7: "t6", 8: "t7", 9: "t8", 0: "t9" };
const CELL_KEYS = { q: "c0", w: "c1", e: "c2", r: "c3" };
const DRAG_THRESHOLD_PX = 6;

export function attachInput(root, game) {
  let drag = null;
  let suppressClick = false;

  function onClick(event) {
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    const pile = event.target.closest("[data-pile]");
    if (!pile || !root.contains(pile)) return;
    const card = event.target.closest(".card[data-index]");
    game.activate(pile.dataset.pile, card ? Number(card.dataset.index) : undefined);
  }

  function onDoubleClick(event) {
    const pile = event.target.closest("[data-pile]");
    if (pile && game.ready()) game.sendHome(pile.dataset.pile);
  }

  function pileForKey(key, focused) {
    const play = game.play();
    if (key in KEY_PILES && Number(KEY_PILES[key].slice(1)) < play.tableau.length) return KEY_PILES[key];
    if (key === "f") return "f";
    if (Array.isArray(play.cells) && key in CELL_KEYS) return CELL_KEYS[key];
    if (Array.isArray(play.waste) && key === "w") return "w";
    if ((key === "d" || key === "s") && !Array.isArray(play.cells)) return "s";
    if ((key === "enter" || key === " ") && focused) return focused.dataset.pile;
    return null;
  }

  function onKey(event) {
    if (!game.play() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const key = event.key.toLowerCase();
    const focused = event.target.closest && event.target.closest("[data-pile]");
    const pile = pileForKey(key, focused);
    if (pile) {
      event.preventDefault();
      game.activate(pile);
    } else if (key === "u") {
      if (game.ready()) game.undo();
    } else if (key === "escape") {
      game.cancel();
    } else if (key === "arrowup" || key === "arrowdown") {
      if (game.resize(key === "arrowup" ? 1 : -1)) event.preventDefault();
    } else if (key === "arrowleft" || key === "arrowright") {
      const piles = [...root.querySelectorAll("[data-pile][tabindex]")];
      if (!piles.length) return;
      event.preventDefault();
      const at = piles.indexOf(focused);
      const step = key === "arrowright" ? 1 : -1;
      piles[at < 0 ? 0 : (at + step + piles.length) % piles.length].focus();
    }
  }

  function onPointerDown(event) {
    if (event.pointerType !== "mouse" || event.button !== 0 || !game.ready()) return;
    const card = event.target.closest(".card:not(.back)");
    const pile = event.target.closest("[data-pile]");
    if (!card || !pile || ["f", "s"].includes(pile.dataset.pile)) return;
    const index = card.dataset.index === undefined ? undefined : Number(card.dataset.index);
    drag = { x: event.clientX, y: event.clientY, pile: pile.dataset.pile, index, ghost: null };
  }

  function startGhost() {
    // The picked cards, copied into a layer that follows the pointer.
    const cards = [...root.querySelectorAll(`[data-pile="${drag.pile}"] .card.selected`)];
    if (!cards.length) return false;
    const first = cards[0].getBoundingClientRect();
    drag.offset = { x: drag.x - first.left, y: drag.y - first.top };
    drag.ghost = h(
      "div",
      { class: "drag-ghost" },
      cards.map((card, i) => {
        const copy = card.cloneNode(true);
        copy.style.top = `calc(var(--ug) * ${i})`;
        return copy;
      }),
    );
    drag.ghost.style.setProperty("--cw", `${first.width}px`);
    drag.ghost.style.setProperty("--ch", `${first.height}px`);
    drag.ghost.style.setProperty("--ug", `${first.height * 0.28}px`);
    document.body.append(drag.ghost);
    root.classList.add("dragging");
    return true;
  }

  function onPointerMove(event) {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD_PX) return;
      if (!game.pick(drag.pile, drag.index) || !startGhost()) {
        drag = null;
        return;
      }
    }
    const x = event.clientX - drag.offset.x;
    const y = event.clientY - drag.offset.y;
    drag.ghost.style.transform = `translate(${x}px, ${y}px)`;
  }

  function onPointerUp(event) {
    if (!drag) return;
    const { ghost } = drag;
    drag = null;
    if (!ghost) return;
    ghost.remove();
    root.classList.remove("dragging");
    suppressClick = true; // the click that ends a drag is not a tap
    setTimeout(() => (suppressClick = false), 0);
    const below = document.elementFromPoint(event.clientX, event.clientY);
    const target = below && below.closest("[data-pile]");
    game.drop(target && root.contains(target) ? target.dataset.pile : null);
  }

  root.addEventListener("click", onClick);
  root.addEventListener("dblclick", onDoubleClick);
  root.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", onKey);
  return () => {
    if (drag && drag.ghost) drag.ghost.remove();
    document.removeEventListener("pointermove", onPointerMove);
    document.removeEventListener("pointerup", onPointerUp);
    document.removeEventListener("keydown", onKey);
  };
}
