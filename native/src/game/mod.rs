//! The stock games' rules (Easthaven and Westcliff, RULES.md) on one mutable position, with
//! moves applied and taken back in place: the depth-first search never copies a position.
//!
//! Cards are the engine's ints: suit = card / 13 (S H D C), rank = card % 13 (Ace = 0).
//! Piles are numbered as in `games.solver.position`: columns 0..9, waste 20,
//! foundation 30, a deal 40, so a path translates with `games.solver.translate`.

mod autoplay;
mod keys;

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
    /// Every column's face-up cards form one run, in every position the search meets
    /// (`Position::note_runs`): their count is the run's length, with no cards to compare.
    pub one_run: bool,
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

    /// Set `rules.one_run` when it holds here: a waste game (no deal puts a card on a
    /// column) whose columns' face-up cards each form one run keeps them so, since a card
    /// put on a column fits the one below, a move leaves a run's lower part, and a turned
    /// card is alone. Row deals put cards that need not fit.
    pub fn note_runs(&mut self) {
        let runs = (0..self.rules.ncols).all(|i| {
            let (col, down) = (&self.cols[i], self.down[i] as usize);
            col.is_empty() || self.walk_run(col, down) == col.len() - down
        });
        self.rules.one_run = !self.rules.row_deals && runs;
    }

    /// How many face-up cards at the top of `col` (`down` face down) form a run.
    fn run_length(&self, col: &[u8], down: usize) -> usize {
        if col.is_empty() {
            return 0;
        }
        if self.rules.one_run {
            debug_assert_eq!(self.walk_run(col, down), col.len() - down);
            return col.len() - down;
        }
        self.walk_run(col, down)
    }

    pub(crate) fn walk_run(&self, col: &[u8], down: usize) -> usize {
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
}
