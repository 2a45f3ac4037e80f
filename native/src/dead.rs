//! Dead ends by a relaxation: a position whose cards cannot all leave their places even
//! in a much easier game is lost.  A port of `games.solver.deadends` (no stock left, or a
//! waste) and `games.solver.deadrows` (row deals to come), where the rules and their
//! proofs are written out; the masks are the same, one bit a card and `SPACE` for "some
//! column is empty".

use crate::game::{rank, suit, Position, KING, MAX_COLS};

const SPACE: u64 = 1 << 52;

pub struct Relaxation {
    bit: [u64; 52],
    /// The cards each card may be built on.
    parents: [u64; 52],
    /// The lower cards of each card's suit.
    lower: [u64; 52],
    /// May the card enter a space?
    space_ok: [bool; 52],
    /// What lets a waste or stock card (or a dealt one, no run carrying it) leave.
    loose: [u64; 52],
}

/// The cards a relaxed row deal put on a column, bottom first (no allocation).
#[derive(Clone, Copy)]
struct Dealt {
    cards: [u8; 52],
    len: usize,
}

impl Default for Dealt {
    fn default() -> Self {
        Dealt {
            cards: [0; 52],
            len: 0,
        }
    }
}

impl Dealt {
    fn last(&self) -> Option<&u8> {
        self.cards[..self.len].last()
    }
    fn push(&mut self, card: u8) {
        self.cards[self.len] = card;
        self.len += 1;
    }
    fn pop(&mut self) {
        self.len -= 1;
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Room for every column's strip, rewritten at each check (no allocation per position).
pub type Strips = [Strip; MAX_COLS];

/// One column's strip table, (b)-(d) of `DeadEnds._dead_column`: `wake[x]` meets the
/// accessible set exactly when `col[x]`, the relaxed top, may leave by (b), (c) or (d).
type Strip = [u64; 52];

impl Relaxation {
    pub fn new(pos: &Position) -> Self {
        let mut r = Relaxation {
            bit: [0; 52],
            parents: [0; 52],
            lower: [0; 52],
            space_ok: [false; 52],
            loose: [0; 52],
        };
        for c in 0..52u8 {
            let i = c as usize;
            r.bit[i] = 1 << c;
            r.lower[i] = ((1u64 << rank(c)) - 1) << (13 * suit(c));
            r.space_ok[i] = rank(c) == KING || !pos.rules.king_only;
            for p in 0..52u8 {
                if pos.fits(p, c) {
                    r.parents[i] |= 1 << p;
                }
            }
            r.loose[i] = r.parents[i] | if r.space_ok[i] { SPACE } else { 0 };
        }
        r
    }

    fn strip(&self, pos: &Position, col: &[u8], d: usize, stays: bool, wake: &mut Strip) {
        let mut run = 0u64;
        for (x, &c) in col.iter().enumerate() {
            if x > d && pos.fits(col[x - 1], c) {
                let k = x - 1;
                if pos.rules.partial_runs || k == d {
                    let y = col[k] as usize;
                    let p = self.parents[y];
                    run |= if self.space_ok[y] && !(stays && k == 0) {
                        p | SPACE
                    } else {
                        p
                    };
                }
            } else {
                run = 0;
            }
            let ci = c as usize;
            let p = self.parents[ci];
            wake[x] = run
                | if self.space_ok[ci] && !(stays && x == 0) {
                    p | SPACE
                } else {
                    p
                };
        }
    }

    /// Every column's strip into `strips`.
    fn fill_strips(&self, pos: &Position, stays: bool, strips: &mut Strips) {
        for (i, wake) in strips.iter_mut().enumerate().take(pos.rules.ncols) {
            self.strip(pos, &pos.cols[i], pos.down[i] as usize, stays, wake);
        }
    }

    #[inline]
    fn add(&self, col: &[u8], x: usize) -> u64 {
        self.bit[col[x] as usize]
            | if x > 0 {
                self.bit[col[x - 1] as usize]
            } else {
                SPACE
            }
    }

    /// Remove a column's own cards from its relaxed top (`top` of them left) down, for as
    /// long as each may leave by the strip's (b)-(d) or by (a); the cards left.
    #[inline(always)]
    fn remove_own(
        &self,
        col: &[u8],
        wake: &Strip,
        top: usize,
        acc: &mut u64,
        gone: &mut u64,
    ) -> usize {
        let mut x = top;
        while x > 0 {
            let low = self.lower[col[x - 1] as usize];
            if *acc & wake[x - 1] == 0 && *gone & low != low {
                break;
            }
            *acc |= self.add(col, x - 1);
            *gone |= self.bit[col[x - 1] as usize];
            x -= 1;
        }
        x
    }

    fn home(&self, pos: &Position) -> u64 {
        (0..4).fold(0, |m, s| m | (((1u64 << pos.found[s]) - 1) << (13 * s)))
    }

    /// Is the position lost by the relaxation (`DeadEnds.dead`)?
    pub fn dead(&self, pos: &Position, strips: &mut Strips) -> bool {
        if pos.rules.row_deals && pos.stock_left() > 0 {
            self.dead_rows(pos, strips)
        } else {
            self.dead_free(pos, strips)
        }
    }

    /// No row deal to come: `DeadEnds._dead`.
    fn dead_free(&self, pos: &Position, strips: &mut Strips) -> bool {
        let ncols = pos.rules.ncols;
        // Here every column is interchangeable for the rest of the game (a waste, or no
        // row deal left): a column's bottom card stays out of spaces (`bottom_stays`).
        self.fill_strips(pos, true, strips);
        let mut gone = self.home(pos);
        let mut acc = 0u64;
        let mut heights = [0usize; MAX_COLS];
        for (height, col) in heights.iter_mut().zip(&pos.cols) {
            *height = col.len();
            acc |= match col.last() {
                Some(&c) => self.bit[c as usize],
                None => SPACE,
            };
        }
        let mut waste = pos.waste.len();
        // The stock cards not removed yet: a mask, removed in any order (waste deals).
        let mut stock = pos.stock[pos.dealt..]
            .iter()
            .fold(0u64, |m, &c| m | self.bit[c as usize]);
        let (mut i, mut idle) = (0, 0);
        loop {
            while idle < ncols {
                let top = heights[i];
                if top > 0 {
                    let x = self.remove_own(&pos.cols[i], &strips[i], top, &mut acc, &mut gone);
                    if x != top {
                        heights[i] = x;
                        idle = 0;
                    }
                }
                idle += 1;
                i = (i + 1) % ncols;
            }
            let mut taken = false;
            while waste > 0 {
                let c = pos.waste[waste - 1] as usize;
                if acc & self.loose[c] == 0 && gone & self.lower[c] != self.lower[c] {
                    break;
                }
                acc |= self.bit[c];
                gone |= self.bit[c];
                waste -= 1;
                taken = true;
            }
            let mut rest = stock;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if acc & self.loose[c] != 0 || gone & self.lower[c] == self.lower[c] {
                    acc |= self.bit[c];
                    gone |= self.bit[c];
                    stock &= !self.bit[c];
                    taken = true;
                }
            }
            if !taken {
                break;
            }
            idle = 0;
        }
        waste > 0 || stock != 0 || heights[..ncols].iter().any(|&h| h > 0)
    }

    /// `deadrows.dead_rows`: the stock is dealt a row at a time onto the relaxed tops.
    fn dead_rows(&self, pos: &Position, strips: &mut Strips) -> bool {
        let ncols = pos.rules.ncols;
        let home = self.home(pos);
        let mut gone = home;
        let mut heights = [0usize; MAX_COLS];
        for (height, col) in heights.iter_mut().zip(&pos.cols) {
            *height = col.len();
        }
        let mut extra = [Dealt::default(); MAX_COLS];
        let mut stays = false;
        self.fill_strips(pos, false, strips);
        let mut dealt = pos.dealt;
        let nstock = pos.stock.len();
        let mut last = false;
        loop {
            let mut acc = gone ^ home;
            for i in 0..ncols {
                acc |= if let Some(&c) = extra[i].last() {
                    self.bit[c as usize]
                } else if heights[i] > 0 {
                    self.bit[pos.cols[i][heights[i] - 1] as usize]
                } else {
                    SPACE
                };
            }
            let (mut i, mut idle) = (0, 0);
            while idle < ncols {
                let col = &pos.cols[i];
                let down = pos.down[i] as usize;
                let mut x = heights[i];
                let mut moved = false;
                let e = &mut extra[i];
                while let Some(&c) = e.last() {
                    let ci = c as usize;
                    let low = self.lower[ci];
                    if acc & self.loose[ci] == 0 && gone & low != low {
                        // Carried by a face-up run beneath it whose lowest card leaves by
                        // (b) or (c)?
                        let mut above = c;
                        let mut k = e.len as isize - 2;
                        let mut carried = false;
                        loop {
                            let (y, j) = if k >= 0 {
                                (e.cards[k as usize], 0isize)
                            } else {
                                let j = x as isize + k;
                                if j < 0 || (j < down as isize && j < x as isize - 1) {
                                    break;
                                }
                                (col[j as usize], j)
                            };
                            if !pos.fits(y, above) {
                                break;
                            }
                            let yi = y as usize;
                            if acc & self.parents[yi] != 0
                                || (acc & SPACE != 0
                                    && self.space_ok[yi]
                                    && (k >= 0 || j != 0 || !stays))
                            {
                                carried = true;
                                break;
                            }
                            above = y;
                            k -= 1;
                        }
                        if !carried {
                            break;
                        }
                    }
                    acc |= self.bit[ci];
                    gone |= self.bit[ci];
                    e.pop();
                    moved = true;
                    acc |= if let Some(&t) = e.last() {
                        self.bit[t as usize]
                    } else if x > 0 {
                        self.bit[col[x - 1] as usize]
                    } else {
                        SPACE
                    };
                }
                if e.is_empty() && x > 0 {
                    let top = x;
                    x = self.remove_own(col, &strips[i], top, &mut acc, &mut gone);
                    if x != top {
                        heights[i] = x;
                        moved = true;
                    }
                }
                if moved {
                    idle = 0;
                }
                idle += 1;
                i = (i + 1) % ncols;
            }
            if last {
                break;
            }
            let n = ncols.min(nstock - dealt);
            for (k, e) in extra.iter_mut().enumerate().take(n) {
                e.push(pos.stock[dealt + k]);
            }
            dealt += n;
            if dealt >= nstock {
                last = true;
                // Row deals: after the last one no deal reaches any column (bottom_stays).
                stays = true;
                self.fill_strips(pos, true, strips);
            }
        }
        heights[..ncols].iter().any(|&h| h > 0) || extra.iter().any(|e| !e.is_empty())
    }
}
