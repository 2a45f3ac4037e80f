//! The transposition key (columns no rule tells apart in a canonical order) and its
//! compact form for waste games (`docs/solver/compact-keys.md`).

use super::{rank, red, suit, Position, MAX_COLS};

impl Position {
    /// The transposition key: everything that decides the future (for one search: the
    /// waste follows from the rest), with the columns that no rule tells apart in a
    /// canonical order (all of them with a waste; with row deals,
    /// the columns no deal reaches any more: `games.solver.position`).
    pub fn key(&self, out: &mut Vec<u8>, order: &mut [usize; MAX_COLS]) {
        out.clear();
        let ncols = self.rules.ncols;
        let fixed = self.first_unfixed();
        for (k, slot) in order.iter_mut().enumerate().take(ncols) {
            *slot = k;
        }
        if fixed < ncols {
            // Every card is in one place, so the bottom cards of non-empty columns differ:
            // they order the columns canonically (the empty ones, all alike, last).
            let bottom = |i: usize| self.cols[i].first().map_or(u8::MAX, |&c| c);
            order[fixed..ncols].sort_unstable_by_key(|&i| bottom(i));
        }
        if !self.rules.row_deals && self.compact_key(out, order) {
            return;
        }
        self.full_key(out, order);
    }

    /// Every column in its own order, with the foundations and the stock count: what
    /// the best-first search keeps of a queued position (the waste follows, as in the key).
    pub fn snapshot(&self, out: &mut Vec<u8>) {
        const IN_ORDER: [usize; MAX_COLS] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        self.full_key(out, &IN_ORDER);
    }

    /// The key with every card written (row deals, and any column whose face-up cards
    /// are not one run), its columns in the order `key` chose.
    fn full_key(&self, out: &mut Vec<u8>, order: &[usize; MAX_COLS]) {
        out.clear();
        let ncols = self.rules.ncols;
        for &i in order.iter().take(ncols) {
            out.push(self.cols[i].len() as u8);
            out.push(self.down[i]);
            out.extend_from_slice(&self.cols[i]);
        }
        out.extend_from_slice(&self.found);
        out.push(self.dealt as u8);
        // The waste is not written: it is the request's waste and the dealt stock cards,
        // in order, less those on the columns or the foundations (cards leave it only
        // from the top, and only deals put cards on it), so the rest of the key fixes it.
    }

    /// The key of a waste game in about half the bytes (`docs/solver/compact-keys.md`):
    /// there every column's face-up cards form one run (a flip leaves one card face up,
    /// and every card put on a column fits the one below), so a column is its run's base
    /// card and length, with one bit a card for which suit of the colour follows (none
    /// when builds follow suit), and its face-down count with its bottom card (which fix
    /// the face-down cards: they never move).  Foundations take a nibble each.  False
    /// (nothing kept) when a column's face-up cards are not one run: the caller writes
    /// the full key, whose first byte (a column length, at most 52) never equals the
    /// compact key's marker.
    fn compact_key(&self, out: &mut Vec<u8>, order: &[usize; MAX_COLS]) -> bool {
        out.clear();
        out.push(COMPACT_MARKER);
        for &i in order.iter().take(self.rules.ncols) {
            let col = &self.cols[i];
            if col.is_empty() {
                out.push(0);
                continue;
            }
            let down = self.down[i] as usize;
            let up = col.len() - down;
            if down > 15 || self.run_length(col, down) != up {
                return false;
            }
            let base = col[down];
            out.push(base + 1);
            out.push(((down as u8) << 4) | (up as u8 - 1));
            if down > 0 {
                out.push(col[0]);
            }
            if self.rules.alternate && up > 1 {
                let mut bits: u16 = 0;
                for (k, &card) in col[down + 1..].iter().enumerate() {
                    // Of the two suits of a colour, the second (Diamonds, Clubs) is a 1.
                    if suit(card) >= 2 {
                        bits |= 1 << k;
                    }
                }
                out.push(bits as u8);
                if up > 9 {
                    out.push((bits >> 8) as u8);
                }
            }
        }
        out.push(self.found[0] | (self.found[1] << 4));
        out.push(self.found[2] | (self.found[3] << 4));
        out.push(self.dealt as u8);
        true
    }
}

impl Position {
    /// Make this the position `key` stands for, its columns in the key's order (columns
    /// the key sorts are alike for every rule): the layered search keeps the positions
    /// it will expand as keys alone.  `start` is the position the search started from
    /// (a column's face-down cards are those of the start's column with the same bottom
    /// card: they never move), `waste0` its waste.
    pub fn restore_key(&mut self, key: &[u8], start: &Position, waste0: &[u8]) {
        let ncols = self.rules.ncols;
        let mut at;
        if key[0] == COMPACT_MARKER {
            at = 1;
            for i in 0..ncols {
                let col = &mut self.cols[i];
                col.clear();
                self.down[i] = 0;
                let stored = key[at];
                at += 1;
                if stored == 0 {
                    continue;
                }
                let counts = key[at];
                at += 1;
                let down = (counts >> 4) as usize;
                let up = (counts & 15) as usize + 1;
                if down > 0 {
                    let bottom = key[at];
                    at += 1;
                    let under = start
                        .cols
                        .iter()
                        .find(|c| c.first() == Some(&bottom))
                        .expect("a face-down column of the start");
                    col.extend_from_slice(&under[..down]);
                    self.down[i] = down as u8;
                }
                let mut bits: u16 = 0;
                if self.rules.alternate && up > 1 {
                    bits = key[at] as u16;
                    at += 1;
                    if up > 9 {
                        bits |= (key[at] as u16) << 8;
                        at += 1;
                    }
                }
                let mut card = stored - 1;
                col.push(card);
                for k in 0..up - 1 {
                    let next_suit = if !self.rules.alternate {
                        suit(card)
                    } else {
                        // The other colour; of its two suits, the second (D, C) is a 1.
                        let second = (bits >> k) & 1 == 1;
                        match (red(card), second) {
                            (true, false) => 0,
                            (true, true) => 3,
                            (false, false) => 1,
                            (false, true) => 2,
                        }
                    };
                    card = (next_suit * 13) as u8 + rank(card) - 1;
                    col.push(card);
                }
            }
            self.found = [
                key[at] & 15,
                key[at] >> 4,
                key[at + 1] & 15,
                key[at + 1] >> 4,
            ];
            at += 2;
        } else {
            at = 0;
            for i in 0..ncols {
                let n = key[at] as usize;
                self.down[i] = key[at + 1];
                self.cols[i].clear();
                self.cols[i].extend_from_slice(&key[at + 2..at + 2 + n]);
                at += 2 + n;
            }
            self.found.copy_from_slice(&key[at..at + 4]);
            at += 4;
        }
        self.dealt = key[at] as usize;
        let mut placed = [false; 52];
        for col in &self.cols {
            for &c in col {
                placed[c as usize] = true;
            }
        }
        for s in 0..4 {
            for r in 0..self.found[s] {
                placed[s * 13 + r as usize] = true;
            }
        }
        // Cards leave the waste only from its top and only deals add to it (`full_key`).
        self.waste.clear();
        for &c in waste0.iter().chain(self.stock[..self.dealt].iter()) {
            if !placed[c as usize] {
                self.waste.push(c);
            }
        }
    }
}

/// The compact key's first byte: above any column length of the full key.
const COMPACT_MARKER: u8 = 0xff;

#[cfg(test)]
mod tests {
    use super::super::{Position, Rules, MAX_COLS};
    use std::collections::HashMap;

    fn westcliff(seed: u64, alternate: bool, partial_runs: bool) -> Position {
        let mut deck: Vec<u8> = (0..52).collect();
        let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        for i in (1..52).rev() {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            deck.swap(i, (x >> 33) as usize % (i + 1));
        }
        let rules = Rules {
            ncols: 7,
            alternate,
            king_only: false,
            partial_runs,
            row_deals: false,
            stock_plays: false,
            king_fill: false,
            one_run: false,
        };
        let cols: Vec<Vec<u8>> = (0..7)
            .map(|c| vec![deck[c], deck[7 + c], deck[14 + c]])
            .collect();
        let mut pos = Position {
            rules,
            cols,
            down: vec![2; 7],
            found: [0; 4],
            stock: deck[21..].to_vec(),
            dealt: 0,
            waste: Vec::new(),
        };
        pos.note_runs();
        pos
    }

    /// Easthaven-open with partial runs: row deals, so full keys, some columns' face-up
    /// cards not one run.
    fn easthaven(seed: u64) -> Position {
        let mut pos = westcliff(seed, true, true);
        pos.rules.row_deals = true;
        pos.note_runs();
        pos
    }

    /// A random walk of up to 300 legal moves from `pos` (the moves chosen by `seed`),
    /// `visit` called at each position.
    fn walk(mut pos: Position, seed: u64, mut visit: impl FnMut(&Position)) {
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let mut x = seed;
        for _ in 0..300 {
            visit(&pos);
            pos.moves(&mut moves, &mut scratch);
            if moves.is_empty() {
                break;
            }
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            pos.apply(moves[(x >> 33) as usize % moves.len()]);
        }
    }

    /// `key`, the key of `pos`, restores from the walk's `start` to a position with the
    /// same key and the same waste.
    fn assert_restores(key: &[u8], pos: &Position, start: &Position) {
        let mut restored = start.clone();
        restored.restore_key(key, start, &[]);
        let (mut again, mut order) = (Vec::new(), [0usize; MAX_COLS]);
        restored.key(&mut again, &mut order);
        assert_eq!(again, key, "a key restores to another position");
        assert_eq!(restored.waste, pos.waste);
    }

    /// Along random walks of row-deal games, a full key restores to a position with the
    /// same key (the layered search's queues hold keys alone).
    #[test]
    fn waste_games_keep_one_run_a_column() {
        for &(alternate, partial_runs) in &[(true, false), (true, true), (false, false)] {
            for seed in 0..40 {
                let start = westcliff(seed, alternate, partial_runs);
                assert!(start.rules.one_run);
                walk(start, seed + 3, |pos| {
                    for (col, &down) in pos.cols.iter().zip(&pos.down) {
                        let up = col.len() - down as usize;
                        assert!(col.is_empty() || pos.walk_run(col, down as usize) == up);
                    }
                });
            }
        }
        assert!(!easthaven(1).rules.one_run, "row deals need not keep runs");
    }

    #[test]
    fn full_keys_restore_to_their_positions() {
        let mut key = Vec::new();
        let mut order = [0usize; MAX_COLS];
        let mut full_keys = 0;
        for seed in 0..100u64 {
            let start = easthaven(seed);
            walk(start.clone(), seed + 7, |pos| {
                pos.key(&mut key, &mut order);
                full_keys += (key[0] != super::COMPACT_MARKER) as usize;
                assert_restores(&key, pos, &start);
            });
        }
        assert!(
            full_keys > 5000,
            "the walks met few positions: {}",
            full_keys
        );
    }

    /// Along random walks, two positions share a compact key exactly when they share the
    /// full key: the compact key loses nothing that tells positions apart; and a compact
    /// key restores to a position with the same key and waste.
    #[test]
    fn compact_keys_tell_apart_exactly_what_full_keys_do() {
        for &(alternate, partial_runs) in &[(true, false), (true, true), (false, false)] {
            let mut by_compact: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
            let mut by_full: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
            let (mut compact, mut full) = (Vec::new(), Vec::new());
            let mut order = [0usize; MAX_COLS];
            let (mut compacted, mut steps) = (0, 0);
            for seed in 0..200u64 {
                let start = westcliff(seed, alternate, partial_runs);
                walk(start.clone(), seed + 1, |pos| {
                    pos.key(&mut compact, &mut order);
                    pos.full_key(&mut full, &order);
                    assert_restores(&compact, pos, &start);
                    compacted += (compact[0] == super::COMPACT_MARKER) as usize;
                    steps += 1;
                    assert!(compact.len() <= full.len() + 1);
                    let known = by_compact
                        .entry(compact.clone())
                        .or_insert_with(|| full.clone());
                    assert_eq!(*known, full, "one compact key, two positions");
                    let known = by_full
                        .entry(full.clone())
                        .or_insert_with(|| compact.clone());
                    assert_eq!(*known, compact, "one position, two compact keys");
                });
            }
            assert!(
                by_compact.len() > 5000,
                "the walks met few positions: {}",
                by_compact.len()
            );
            // In a waste game every reachable column's face-up cards are one run.
            assert_eq!(compacted, steps);
        }
    }
}
