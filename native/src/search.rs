//! Depth-first search over settled positions (safe auto-play after every move) with a
//! transposition set: a win's path, or a proof that none exists when the search runs out
//! of positions, or "unknown" when a budget (positions, time, memory) is spent first.
//!
//! The pruning rules are the Python solver's (`games.solver`), each sound for the reasons
//! written there: safe auto-play to the foundations (`Position::autoplay_move`), dead ends
//! by a relaxation (`dead`), columns no rule tells apart sorted in the key and spaces
//! among them taken in one order (`Position::moves`), and revisited keys skipped.

use crate::dead::Relaxation;
use crate::game::{Done, Move, Position};
use crate::keyset::KeySet;
use crate::limits::{Limits, Stop};
use crate::walk::Walk;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Won,
    Lost,
    Unknown,
}

pub struct Search {
    walk: Walk,
    seen: KeySet,
    pub nodes: u64,
    pub stopped: Option<Stop>,
    /// After a win: where each chosen move starts in `path`.
    steps: Vec<usize>,
    /// The position the search started from.
    root: Position,
    /// Moves the shortcut's lookahead applied, to take back.
    lookahead: Vec<Done>,
    limits: Limits,
    relaxation: Relaxation,
}

impl Search {
    pub fn new(pos: Position, node_limit: u64, deadline: Instant, memory_limit: usize) -> Self {
        let relaxation = Relaxation::new(&pos);
        let root = pos.clone();
        Search {
            walk: Walk::new(pos),
            seen: KeySet::new(memory_limit),
            nodes: 0,
            stopped: None,
            steps: Vec::new(),
            root,
            lookahead: Vec::new(),
            limits: Limits {
                node_limit,
                deadline,
            },
            relaxation,
        }
    }

    /// Search from the position; on a win `path` holds every move from the start.
    pub fn run(&mut self) -> Verdict {
        self.walk.settle();
        if self.walk.pos.won() {
            return Verdict::Won;
        }
        self.walk.write_key();
        self.seen.insert(&self.walk.key);
        self.nodes = 1;
        match self.dfs() {
            Ok(true) => Verdict::Won,
            Ok(false) => Verdict::Lost,
            Err(stop) => {
                self.stopped = Some(stop);
                Verdict::Unknown
            }
        }
    }

    /// Depth-first over every new position: true on a win, with the walk's `path`
    /// holding it.
    fn dfs(&mut self) -> Result<bool, Stop> {
        if self.walk.dead(&self.relaxation) {
            return Ok(false);
        }
        let (seen, nodes, limits) = (&mut self.seen, &mut self.nodes, &self.limits);
        let won = self.walk.depth_first(&self.relaxation, |walk| {
            if !seen.insert(&walk.key) {
                return Ok(false);
            }
            *nodes += 1;
            limits.check(*nodes, || seen.full())?;
            Ok(true)
        })?;
        match won {
            Some(steps) => {
                self.steps = steps;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The win in `path`, with shortcuts: a depth-first win wanders (tens of thousands of
    /// moves on some deals), through positions that one move from an earlier one of them
    /// already reaches.  From the start, take at each position the move (with its
    /// auto-play) whose position is the furthest one along the win, by key, until the
    /// win.  Every move is generated from the position it is played in, so the result is
    /// legal; it is a win because it reaches the win's last key, or wins sooner.
    pub fn shortcut_win(&mut self) -> Vec<Move> {
        use std::collections::HashMap;
        let mut pos = self.root.clone();
        let opening = self.steps.first().copied().unwrap_or(self.walk.path.len());
        let mut out: Vec<Move> = self.walk.path[..opening].iter().map(|d| d.mv).collect();
        // The keys of the positions the win passes, by their index along it.
        let mut along: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut bounds = self.steps.clone();
        bounds.push(self.walk.path.len());
        for d in &self.walk.path[..opening] {
            pos.apply(d.mv);
        }
        let start = pos.clone();
        for (index, window) in bounds.windows(2).enumerate() {
            pos.key(&mut self.walk.key, &mut self.walk.order);
            along.insert(self.walk.key.clone(), index);
            for d in &self.walk.path[window[0]..window[1]] {
                pos.apply(d.mv);
            }
        }
        let last = bounds.len() - 1;
        let mut pos = start;
        let mut index = 0;
        while index < last {
            // The furthest index one move reaches, and two moves (when that gains more).
            let one = self.furthest(&mut pos, &along, last, index);
            let mut best = one.map(|(j, mv)| (j, vec![mv]));
            let mut firsts = Vec::new();
            pos.moves(&mut firsts, &mut self.walk.scratch);
            for mv in firsts {
                let mark = self.path_scratch(&mut pos, mv);
                if !pos.won() {
                    if let Some((j, second)) = self.furthest(&mut pos, &along, last, index) {
                        if best.as_ref().map_or(true, |(b, _)| j >= b + 2) {
                            best = Some((j, vec![mv, second]));
                        }
                    }
                }
                self.unwind(&mut pos, mark);
            }
            let (j, chosen) = match best {
                Some(found) => found,
                None => return self.walk.path.iter().map(|d| d.mv).collect(),
            };
            for mv in chosen {
                pos.apply(mv);
                out.push(mv);
                while let Some(auto) = pos.autoplay_move() {
                    pos.apply(auto);
                    out.push(auto);
                }
            }
            index = j;
        }
        out
    }

    /// Apply `mv` and its auto-play to `pos`, keeping what takes them back; returns where
    /// they start in the lookahead's stack.
    fn path_scratch(&mut self, pos: &mut Position, mv: Move) -> usize {
        let mark = self.lookahead.len();
        self.lookahead.push(pos.apply(mv));
        while let Some(auto) = pos.autoplay_move() {
            self.lookahead.push(pos.apply(auto));
        }
        mark
    }

    fn unwind(&mut self, pos: &mut Position, mark: usize) {
        while self.lookahead.len() > mark {
            let done = self.lookahead.pop().expect("a move to take back");
            pos.undo(done);
        }
    }

    /// The furthest index along the win (`last` for a win) that one move from `pos`
    /// reaches beyond `index`, with that move.
    fn furthest(
        &mut self,
        pos: &mut Position,
        along: &std::collections::HashMap<Vec<u8>, usize>,
        last: usize,
        index: usize,
    ) -> Option<(usize, Move)> {
        let mut moves = Vec::new();
        pos.moves(&mut moves, &mut self.walk.scratch);
        let mut best: Option<(usize, Move)> = None;
        for mv in moves {
            let mark = self.path_scratch(pos, mv);
            let reach = if pos.won() {
                Some(last)
            } else {
                pos.key(&mut self.walk.key, &mut self.walk.order);
                along.get(&self.walk.key).copied()
            };
            self.unwind(pos, mark);
            if let Some(j) = reach {
                if j > index && best.map_or(true, |(b, _)| j > b) {
                    best = Some((j, mv));
                }
            }
        }
        best
    }
}
