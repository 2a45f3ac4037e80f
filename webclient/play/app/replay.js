// Playing back a past day's published deck and par solution in the browser.
//
// The server publishes a daily deal's deck and solution once its day is over; this module
// lays the deck out as RULES.md describes and applies the solution's moves one by one. It
// trusts the solution (the server replayed it through its engine before storing it), so it
// moves cards and never judges a move. Its states have the shape of the API's play document,
// so the same table draws them.

const GEOMETRY = {
  easthaven: { columns: 7, rows: 3, down: 2, stock: "rows" },
  "easthaven-open": { columns: 7, rows: 3, down: 2, stock: "rows" },
  "easthaven-suit": { columns: 7, rows: 3, down: 2, stock: "rows" },
  westcliff: { columns: 10, rows: 3, down: 2, stock: "waste" },
  "westcliff-classic": { columns: 7, rows: 3, down: 2, stock: "waste" },
  seahaven: { columns: 10, rows: 5, down: 0, stock: "none", cells: 4 },
};

export const canReplay = (preset) => preset in GEOMETRY;

export function layOut(preset, deck) {
  const g = GEOMETRY[preset];
  const cols = Array.from({ length: g.columns }, () => ({ cards: [], down: 0 }));
  for (let row = 0; row < g.rows; row++) {
    for (let c = 0; c < g.columns; c++) {
      cols[c].cards.push(deck[row * g.columns + c]);
      if (row < g.down) cols[c].down++;
    }
  }
  const dealt = g.rows * g.columns;
  const state = {
    preset,
    cols,
    found: { S: null, H: null, D: null, C: null },
    cells: g.cells ? [null, null, null, null] : null,
    stock: [],
    waste: g.stock === "waste" ? [] : null,
  };
  if (g.cells) {
    state.cells[1] = deck[dealt];
    state.cells[2] = deck[dealt + 1];
  } else {
    state.stock = deck.slice(dealt);
  }
  return state;
}

function copy(state) {
  return {
    ...state,
    cols: state.cols.map((col) => ({ cards: [...col.cards], down: col.down })),
    found: { ...state.found },
    cells: state.cells && [...state.cells],
    stock: [...state.stock],
    waste: state.waste && [...state.waste],
  };
}

function take(state, pile, count) {
  if (pile === "w") return [state.waste.pop()];
  if (pile[0] === "c") {
    const k = Number(pile.slice(1));
    const card = state.cells[k];
    state.cells[k] = null;
    return [card];
  }
  const col = state.cols[Number(pile.slice(1))];
  const cards = col.cards.splice(col.cards.length - count, count);
  // The card that becomes the top turns face up.
  if (col.down > col.cards.length - 1) col.down = Math.max(col.cards.length - 1, 0);
  return cards;
}

export function applyMove(state, move) {
  const next = copy(state);
  if (move.type === "deal") {
    if (next.waste) {
      next.waste.push(next.stock.shift());
    } else {
      for (const col of next.cols) {
        if (!next.stock.length) break;
        col.cards.push(next.stock.shift());
      }
    }
    return next;
  }
  const cards = take(next, move.from, move.count || 1);
  if (move.to === "f") {
    next.found[cards[0][1]] = cards[0];
  } else if (move.to[0] === "c") {
    next.cells[Number(move.to.slice(1))] = cards[0];
  } else {
    next.cols[Number(move.to.slice(1))].cards.push(...cards);
  }
  return next;
}

// The API's play-document shape, so renderTable draws it.
export function view(state) {
  const doc = {
    preset: state.preset,
    tableau: state.cols.map((col) => ({ down: col.down, up: col.cards.slice(col.down) })),
    foundations: state.found,
    stock: state.stock.length,
  };
  if (state.cells) doc.cells = state.cells;
  if (state.waste) doc.waste = state.waste;
  return doc;
}

// Every position of the playback: positions[0] is the deal, positions[k] after k moves.
export function positions(preset, deck, solution) {
  const states = [layOut(preset, deck)];
  for (const move of solution) states.push(applyMove(states[states.length - 1], move));
  return states.map(view);
}
