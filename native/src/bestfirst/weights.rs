//! The best-first search's heuristics: the weight sets each queue scores positions by,
//! as the Python `games.solver.bestfirst` chose them, and the score itself.

use crate::game::{rank, suit, Position, Rules};

/// Integer weights of the heuristic (costs: higher is worse), as `bestfirst.Weights`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub(super) found: i64,
    pub(super) down: i64,
    pub(super) buried: i64,
    pub(super) stock: i64,
    pub(super) blocker: i64,
    pub(super) loose: i64,
    pub(super) space: i64,
    pub(super) waste: i64,
    pub(super) depth: i64,
    pub(super) order: i64,
    pub(super) dive: bool,
}

const PLAIN: Weights = Weights {
    found: 10,
    down: 6,
    buried: 1,
    stock: 2,
    blocker: 4,
    loose: 2,
    space: 8,
    waste: 1,
    depth: 0,
    order: 0,
    dive: false,
};

const DIVE: Weights = Weights {
    dive: true,
    ..PLAIN
};

/// The queues for a rule family, as `bestfirst.make_weights` chose them (its docstring
/// has the measurements): Westcliff greedy with the generator's order as tie-break, with
/// and without a cost per move, and a depth-first queue; Easthaven two weight sets.
pub fn weights_for(rules: &Rules) -> Vec<Weights> {
    if !rules.row_deals {
        let greedy = Weights {
            stock: 0,
            order: 30,
            ..PLAIN
        };
        if rules.ncols > 7 {
            return vec![greedy, DIVE];
        }
        let with_depth = |depth| Weights { depth, ..greedy };
        return vec![greedy, with_depth(5), with_depth(10), DIVE];
    }
    let lean = Weights {
        stock: 0,
        blocker: 8,
        ..PLAIN
    };
    if rules.king_fill {
        return vec![PLAIN, lean, DIVE];
    }
    vec![
        PLAIN,
        lean,
        Weights { depth: 5, ..PLAIN },
        Weights { depth: 5, ..lean },
        DIVE,
    ]
}

/// The heuristic of weights `w` on `pos` (`bestfirst._scorer`): never negative.
pub(super) fn score(w: &Weights, pos: &Position) -> i64 {
    let offset = 52 * w.found + 10 * w.space + 2 * w.order;
    let home: i64 = pos.found.iter().map(|&f| f as i64).sum();
    let mut h = offset - w.found * home + w.stock * (pos.stock.len() - pos.dealt) as i64;
    for i in 0..pos.rules.ncols {
        let col = &pos.cols[i];
        if col.is_empty() {
            h -= w.space;
            continue;
        }
        let d = pos.down[i] as usize;
        h += w.down * d as i64;
        if d > 0 {
            h += w.buried * (col.len() - d) as i64;
        }
        let mut low = [99u8; 4];
        let mut prev = 0u8;
        for (k, &c) in col.iter().enumerate() {
            let (s, r) = (suit(c), rank(c));
            if r > low[s] {
                h += w.blocker;
            } else {
                low[s] = r;
            }
            if k > d && !pos.fits(prev, c) {
                h += w.loose;
            }
            prev = c;
        }
    }
    if !pos.waste.is_empty() {
        let mut low = [99u8; 4];
        for &c in &pos.waste {
            let (s, r) = (suit(c), rank(c));
            if r > low[s] {
                h += w.blocker;
            } else {
                low[s] = r;
            }
        }
        h += w.waste * (pos.waste.len() as i64 - 1);
    }
    h
}
