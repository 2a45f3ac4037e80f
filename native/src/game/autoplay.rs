//! Safe auto-play: the cards no win needs on the table go home after every move
//! (`games.solver.autoplay`, where the proofs are written out).

use super::{rank, red, suit, Move, Position, FOUND, KING, WASTE};

impl Position {
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
}
