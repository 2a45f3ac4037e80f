//! The stock games' rules (Easthaven and Westcliff, RULES.md) on one mutable position, with
//! moves applied and taken back in place: the depth-first search never copies a position.
//!
//! Cards are the engine's ints: suit = card / 13 (S H D C), rank = card % 13 (Ace = 0).
//! Piles are numbered as in `games.solver.position`: columns 0..9, waste 20,
//! foundation 30, a deal 40, so a path translates with `games.solver.translate`.

pub const WASTE: u8 = 20;
pub const FOUND: u8 = 30;
pub const DEAL: u8 = 40;
pub const KING: u8 = 12;
pub const MAX_COLS: usize = 10;

#[inline]
pub fn suit(card: u8) -> usize {
    (card / 13) as usize
}
#[inline]
pub fn rank(card: u8) -> u8 {
    card % 13
}
#[inline]
fn red(card: u8) -> bool {
    matches!(suit(card), 1 | 2)
}

/// What the preset decides (`games.engine.Rules`).
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub ncols: usize,
    /// Builds alternate colours (else same suit).
    pub alternate: bool,
    /// Spaces take a King or King-headed run only.
    pub king_only: bool,
    /// Any top part of the face-up cards that is a run may move.
    pub partial_runs: bool,
    /// Deals go one card onto each column (Easthaven); else one card onto the waste.
    pub row_deals: bool,
    /// Waste deals: the search plays the stock by *stock plays* (`search`), its
    /// reduction of the deal move (`docs/solver/stock-plays.md`, with the proof).
    pub stock_plays: bool,
    /// Easthaven proper: no deal while a King unit could fill a space.
    pub king_fill: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub src: u8,
    pub dst: u8,
    pub count: u8,
}

/// What taking a move back needs besides the move.
#[derive(Clone, Copy, Debug)]
pub struct Done {
    pub mv: Move,
    /// The source column's top card turned face up.
    pub flipped: bool,
    /// Cards a row deal put out.
    pub dealt: u8,
    /// The card a foundation move sent home.
    pub card: u8,
}

#[derive(Clone, Debug)]
pub struct Position {
    pub rules: Rules,
    pub cols: Vec<Vec<u8>>,
    pub down: Vec<u8>,
    pub found: [u8; 4],
    /// The whole stock, first card out first; `dealt` of them have left it.
    pub stock: Vec<u8>,
    pub dealt: usize,
    pub waste: Vec<u8>,
}

impl Move {
    pub const DEAL: Move = Move {
        src: DEAL,
        dst: DEAL,
        count: 0,
    };
}

impl Position {
    #[inline]
    pub fn fits(&self, below: u8, above: u8) -> bool {
        rank(above) + 1 == rank(below)
            && if self.rules.alternate {
                red(above) != red(below)
            } else {
                suit(above) == suit(below)
            }
    }

    pub fn won(&self) -> bool {
        self.found == [13, 13, 13, 13]
    }

    pub fn stock_left(&self) -> usize {
        self.stock.len() - self.dealt
    }

    /// How many face-up cards at the top of `col` (`down` face down) form a run.
    fn run_length(&self, col: &[u8], down: usize) -> usize {
        if col.is_empty() {
            return 0;
        }
        let mut n = 1;
        let mut k = col.len() - 1;
        while k > down && self.fits(col[k - 1], col[k]) {
            n += 1;
            k -= 1;
        }
        n
    }

    /// The counts that may leave `col` (`games.engine.game.movable_counts`).
    fn counts_of(&self, col: &[u8], down: usize, out: &mut [u8; 16]) -> usize {
        if col.is_empty() {
            return 0;
        }
        let length = self.run_length(col, down);
        if self.rules.partial_runs {
            let n = length.min(out.len());
            for (k, slot) in out.iter_mut().take(n).enumerate() {
                *slot = (k + 1) as u8;
            }
            return n;
        }
        let up = col.len() - down;
        out[0] = 1;
        if length == up && up > 1 {
            out[1] = up as u8;
            return 2;
        }
        1
    }

    fn movable_counts(&self, i: usize, out: &mut [u8; 16]) -> usize {
        self.counts_of(&self.cols[i], self.down[i] as usize, out)
    }

    /// May a King (or a King-headed run) lying on a card leave `col`?
    pub fn king_may_leave(&self, col: &[u8], down: usize) -> bool {
        let mut counts = [0u8; 16];
        let n = self.counts_of(col, down, &mut counts);
        counts[..n].iter().any(|&count| {
            (count as usize) < col.len() && rank(col[col.len() - count as usize]) == KING
        })
    }

    /// Easthaven proper: a space, and a King (or King-headed run) on a card that may move.
    fn king_could_fill(&self) -> bool {
        if self.cols.iter().all(|c| !c.is_empty()) {
            return false;
        }
        (0..self.rules.ncols).any(|i| self.king_may_leave(&self.cols[i], self.down[i] as usize))
    }

    fn may_enter(&self, j: usize, first: u8) -> bool {
        match self.cols[j].last() {
            None => !self.rules.king_only || rank(first) == KING,
            Some(&top) => self.fits(top, first),
        }
    }

    /// With stock plays: is the waste's top card the one just dealt (not sent home by the
    /// auto-play)?  Then the position is the middle of a stock play, not a node: a win
    /// needs from it only a move of that card or another deal (the proof is in
    /// `docs/solver/stock-plays.md`), so the searches neither store it nor give it other
    /// moves.
    pub fn fresh_waste_card(&self) -> bool {
        self.rules.stock_plays
            && !self.rules.row_deals
            && self.dealt > 0
            && self.waste.last() == Some(&self.stock[self.dealt - 1])
    }

    /// The columns from this index on are told apart by no rule (their order is sorted
    /// in the key): every column with a waste; with row deals, those no deal reaches.
    pub fn first_unfixed(&self) -> usize {
        if self.rules.row_deals {
            self.rules.ncols.min(self.stock_left())
        } else {
            0
        }
    }

    /// Every legal move but those that give the key of another one (`games.solver.movegen`:
    /// among columns no rule tells apart, only the first space is a target and a whole
    /// column does not move into a space), in the Python generator's order: foundation
    /// moves, moves that turn a face-down card, waste cards onto columns, moves that empty
    /// a column or lift a card off one it does not fit, the deal, runs off cards they
    /// fit, moves into spaces.
    pub fn moves(&self, out: &mut Vec<Move>, scratch: &mut Vec<(u8, Move)>) {
        scratch.clear();
        let ncols = self.rules.ncols;
        let unfixed = self.first_unfixed();
        let first_space = (unfixed..ncols).find(|&j| self.cols[j].is_empty());
        let mut counts = [0u8; 16];
        for i in 0..ncols {
            let col = &self.cols[i];
            let top = match col.last() {
                Some(&top) => top,
                None => continue,
            };
            if self.found[suit(top)] == rank(top) {
                scratch.push((
                    0,
                    Move {
                        src: i as u8,
                        dst: FOUND,
                        count: 1,
                    },
                ));
            }
            let up = col.len() - self.down[i] as usize;
            let n = self.movable_counts(i, &mut counts);
            for &count in &counts[..n] {
                let c = count as usize;
                let first = col[col.len() - c];
                let whole = c == col.len();
                let order = if c == up && self.down[i] > 0 {
                    1
                } else if whole || !self.fits(col[col.len() - c - 1], first) {
                    3
                } else {
                    5
                };
                for j in 0..ncols {
                    if j == i || !self.may_enter(j, first) {
                        continue;
                    }
                    let mut rank_of = order;
                    if self.cols[j].is_empty() {
                        if j >= unfixed && (Some(j) != first_space || (whole && i >= unfixed)) {
                            continue;
                        }
                        if order != 1 {
                            rank_of = 6;
                        }
                    }
                    scratch.push((
                        rank_of,
                        Move {
                            src: i as u8,
                            dst: j as u8,
                            count,
                        },
                    ));
                }
            }
        }
        if let Some(&card) = self.waste.last() {
            if self.found[suit(card)] == rank(card) {
                scratch.push((
                    0,
                    Move {
                        src: WASTE,
                        dst: FOUND,
                        count: 1,
                    },
                ));
            }
            for j in 0..ncols {
                if !self.may_enter(j, card) {
                    continue;
                }
                if self.cols[j].is_empty() && j >= unfixed && Some(j) != first_space {
                    continue;
                }
                scratch.push((
                    2,
                    Move {
                        src: WASTE,
                        dst: j as u8,
                        count: 1,
                    },
                ));
            }
        }
        if self.dealt < self.stock.len() && !(self.rules.king_fill && self.king_could_fill()) {
            scratch.push((4, Move::DEAL));
        }
        // A counting sort by order, stable (the generator's order within one).
        let mut starts = [0usize; 8];
        for &(order, _) in scratch.iter() {
            starts[order as usize + 1] += 1;
        }
        for k in 1..8 {
            starts[k] += starts[k - 1];
        }
        out.clear();
        out.resize(
            scratch.len(),
            Move {
                src: 0,
                dst: 0,
                count: 0,
            },
        );
        for &(order, mv) in scratch.iter() {
            out[starts[order as usize]] = mv;
            starts[order as usize] += 1;
        }
    }

    /// The Python generator's score of a legal move (`games.solver.movegen.MoveGen.moves`),
    /// which the best-first search breaks its ties with: home 100 (120 turning a card),
    /// a waste card onto a card 50 or into a space 20, the deal 20, and a column's cards
    /// by what they leave behind (a space 40, a face-down card 60-75, a card they do not
    /// fit 30, one they fit 5), plus their count, 20 less into a space (a King 5 less).
    pub fn generator_score(&self, mv: Move) -> i64 {
        if mv.src == DEAL {
            return 20;
        }
        if mv.src == WASTE {
            return match mv.dst {
                FOUND => 100,
                j if self.cols[j as usize].is_empty() => 20,
                _ => 50,
            };
        }
        let col = &self.cols[mv.src as usize];
        let d = self.down[mv.src as usize] as usize;
        if mv.dst == FOUND {
            return if col.len() - 1 == d && d > 0 {
                120
            } else {
                100
            };
        }
        let count = mv.count as usize;
        let rest = col.len() - count;
        let first = col[rest];
        let base = if rest == 0 {
            40
        } else if rest == d {
            60 + 5 * (3usize.saturating_sub(d)) as i64
        } else if self.fits(col[rest - 1], first) {
            5
        } else {
            30
        };
        if self.cols[mv.dst as usize].is_empty() {
            base - 20 + if rank(first) == KING { 15 } else { 0 }
        } else {
            base + count as i64
        }
    }

    /// Apply a legal move.
    pub fn apply(&mut self, mv: Move) -> Done {
        let mut done = Done {
            mv,
            flipped: false,
            dealt: 0,
            card: 0,
        };
        if mv.src == DEAL {
            if self.rules.row_deals {
                let n = self.rules.ncols.min(self.stock_left());
                for i in 0..n {
                    let card = self.stock[self.dealt + i];
                    self.cols[i].push(card);
                }
                self.dealt += n;
                done.dealt = n as u8;
            } else {
                self.waste.push(self.stock[self.dealt]);
                self.dealt += 1;
                done.dealt = 1;
            }
            return done;
        }
        let count = mv.count as usize;
        let mut moved = [0u8; 52];
        if mv.src == WASTE {
            moved[0] = self.waste.pop().expect("waste card");
        } else {
            let i = mv.src as usize;
            let col = &mut self.cols[i];
            let from = col.len() - count;
            moved[..count].copy_from_slice(&col[from..]);
            col.truncate(from);
            if !col.is_empty() && col.len() == self.down[i] as usize {
                self.down[i] -= 1;
                done.flipped = true;
            }
        }
        if mv.dst == FOUND {
            self.found[suit(moved[0])] += 1;
            done.card = moved[0];
        } else {
            self.cols[mv.dst as usize].extend_from_slice(&moved[..count]);
        }
        done
    }

    /// Take back the last move applied.
    pub fn undo(&mut self, done: Done) {
        let mv = done.mv;
        if mv.src == DEAL {
            let n = done.dealt as usize;
            if self.rules.row_deals {
                for i in 0..n {
                    self.cols[i].pop();
                }
            } else {
                self.waste.pop();
            }
            self.dealt -= n;
            return;
        }
        if mv.dst == FOUND {
            self.found[suit(done.card)] -= 1;
            self.put_back(done, &[done.card]);
            return;
        }
        let count = mv.count as usize;
        let mut moved = [0u8; 52];
        let col = &mut self.cols[mv.dst as usize];
        let from = col.len() - count;
        moved[..count].copy_from_slice(&col[from..]);
        col.truncate(from);
        self.put_back(done, &moved[..count]);
    }

    fn put_back(&mut self, done: Done, cards: &[u8]) {
        if done.mv.src == WASTE {
            self.waste.push(cards[0]);
        } else {
            let i = done.mv.src as usize;
            if done.flipped {
                self.down[i] += 1;
            }
            self.cols[i].extend_from_slice(cards);
        }
    }

    /// May every safe card be auto-played?  Everywhere but in Easthaven proper while its
    /// King-fill rule can still refuse a deal: there once the stock is empty, or every King
    /// is home or at the bottom of a column with none left in the stock
    /// (`games.solver.autoplay.AutoPlay.auto_allowed`).
    fn autoplay_allowed(&self) -> bool {
        if !self.rules.king_fill || self.dealt == self.stock.len() {
            return true;
        }
        if self.stock[self.dealt..].iter().any(|&c| rank(c) == KING) {
            return false;
        }
        (0..4).all(|s| {
            self.found[s] == 13 || {
                let king = (s * 13) as u8 + KING;
                self.cols.iter().any(|c| c.first() == Some(&king))
            }
        })
    }

    /// Is `card` (next on its foundation) safe to send home: can no win need it on the
    /// table?  Same-suit builds always; alternate colours when each card that fits on it
    /// is home or next, and then the cards that fit on those are home or next too
    /// (`games.solver.autoplay.AutoPlay.safe`, with the proof).
    #[inline]
    fn safe_home(&self, card: u8) -> bool {
        if !self.rules.alternate {
            return true;
        }
        let s = suit(card);
        let r = rank(card) as i32;
        let (a, b) = if red(card) { (0, 3) } else { (1, 2) };
        let low = self.found[a].min(self.found[b]) as i32;
        low >= r || (low == r - 1 && self.found[3 - s] as i32 >= r - 2)
    }

    /// Easthaven proper, while the King-fill rule can still refuse a deal: may the safe top
    /// card of column `i` go home all the same (`AutoPlay.fill_neutral`, with the proof)?
    fn fill_neutral(&self, i: usize) -> bool {
        let col = &self.cols[i];
        let d = self.down[i] as usize;
        let n = col.len();
        let c = col[n - 1];
        if n < 2 || rank(c) >= KING - 1 {
            return false;
        }
        let twin = (3 - suit(c) as u8) * 13 + rank(c);
        if self.early_in_stock(twin) && self.king_under(twin) {
            return false;
        }
        if self.king_may_leave(col, d) {
            return true;
        }
        let d_after = if n - 1 == d { d.saturating_sub(1) } else { d };
        !self.king_may_leave(&col[..n - 1], d_after)
    }

    /// Is `card` in the stock, and not among the last deal's cards?
    fn early_in_stock(&self, card: u8) -> bool {
        let left = self.stock_left();
        if left == 0 {
            return false;
        }
        let step = if self.rules.row_deals {
            self.rules.ncols
        } else {
            1
        };
        let end = self.dealt + step * ((left - 1) / step);
        self.stock[self.dealt..end].contains(&card)
    }

    /// Row deals: may a King lie on a card in the column the stock card `card` is dealt
    /// onto, when it comes (`AutoPlay._king_under`)?
    fn king_under(&self, card: u8) -> bool {
        if !self.rules.row_deals {
            return true;
        }
        let ncols = self.rules.ncols;
        let k = match self.stock[self.dealt..].iter().position(|&c| c == card) {
            Some(at) => self.dealt + at,
            None => return false,
        };
        let j = k % ncols;
        if self.cols[j].iter().skip(1).any(|&x| rank(x) == KING) {
            return true;
        }
        (self.dealt + j..k)
            .step_by(ncols)
            .any(|i| rank(self.stock[i]) == KING)
    }

    /// One auto-play move, if any: a safe column top or the waste's top.
    pub fn autoplay_move(&self) -> Option<Move> {
        let mut allowed: Option<bool> = None;
        for i in 0..self.rules.ncols {
            if let Some(&top) = self.cols[i].last() {
                if self.found[suit(top)] == rank(top) && self.safe_home(top) {
                    let free = *allowed.get_or_insert_with(|| self.autoplay_allowed());
                    if free || self.fill_neutral(i) {
                        return Some(Move {
                            src: i as u8,
                            dst: FOUND,
                            count: 1,
                        });
                    }
                }
            }
        }
        if let Some(&card) = self.waste.last() {
            if self.found[suit(card)] == rank(card) && self.safe_home(card) {
                return Some(Move {
                    src: WASTE,
                    dst: FOUND,
                    count: 1,
                });
            }
        }
        None
    }

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

/// The compact key's first byte: above any column length of the full key.
const COMPACT_MARKER: u8 = 0xff;

#[cfg(test)]
mod tests {
    use super::{Position, Rules, MAX_COLS};
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
        };
        let cols: Vec<Vec<u8>> = (0..7)
            .map(|c| vec![deck[c], deck[7 + c], deck[14 + c]])
            .collect();
        Position {
            rules,
            cols,
            down: vec![2; 7],
            found: [0; 4],
            stock: deck[21..].to_vec(),
            dealt: 0,
            waste: Vec::new(),
        }
    }

    /// Along random walks, two positions share a compact key exactly when they share the
    /// full key: the compact key loses nothing that tells positions apart.
    #[test]
    fn compact_keys_tell_apart_exactly_what_full_keys_do() {
        for &(alternate, partial_runs) in &[(true, false), (true, true), (false, false)] {
            let mut by_compact: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
            let mut by_full: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
            let (mut compact, mut full) = (Vec::new(), Vec::new());
            let mut order = [0usize; MAX_COLS];
            let (mut moves, mut scratch) = (Vec::new(), Vec::new());
            let (mut compacted, mut steps) = (0, 0);
            for seed in 0..200u64 {
                let mut pos = westcliff(seed, alternate, partial_runs);
                let mut x = seed + 1;
                for _ in 0..300 {
                    pos.key(&mut compact, &mut order);
                    pos.full_key(&mut full, &order);
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
                    pos.moves(&mut moves, &mut scratch);
                    if moves.is_empty() {
                        break;
                    }
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    pos.apply(moves[(x >> 33) as usize % moves.len()]);
                }
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
