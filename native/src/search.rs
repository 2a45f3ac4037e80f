//! Depth-first search over settled positions (safe auto-play after every move) with a
//! transposition set: a win's path, or a proof that none exists when the search runs out
//! of positions, or "unknown" when a budget (positions, time, memory) is spent first.
//!
//! The pruning rules are the Python solver's (`games.solver`), each sound for the reasons
//! written there: safe auto-play to the foundations (`Position::autoplay_move`), dead ends
//! by a relaxation (`dead`), columns no rule tells apart sorted in the key and spaces
//! among them taken in one order (`Position::moves`), and revisited keys skipped.

use crate::dead::{Relaxation, Strips};
use crate::game::{Done, Move, Position, DEAL, MAX_COLS, WASTE};
use crate::keyset::KeySet;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Won,
    Lost,
    Unknown,
}

#[derive(Debug)]
pub enum Stop {
    Nodes,
    Time,
    Memory,
}

/// The positions and the deadline a search stops at (memory is each search's own count).
#[derive(Clone, Copy)]
pub struct Limits {
    pub node_limit: u64,
    pub deadline: Instant,
}

impl Limits {
    /// After each new position: its count every time, the clock and `over_memory` every
    /// 4,096 positions (they cost a system call and a sum).
    pub fn check(&self, nodes: u64, over_memory: impl FnOnce() -> bool) -> Result<(), Stop> {
        if nodes >= self.node_limit {
            return Err(Stop::Nodes);
        }
        if nodes & 4095 == 0 {
            if Instant::now() > self.deadline {
                return Err(Stop::Time);
            }
            if over_memory() {
                return Err(Stop::Memory);
            }
        }
        Ok(())
    }
}

pub struct Search {
    pub pos: Position,
    pub seen: KeySet,
    pub nodes: u64,
    pub path: Vec<Done>,
    pub stopped: Option<Stop>,
    /// After a win: where each chosen move starts in `path`.
    steps: Vec<usize>,
    /// The position the search started from.
    root: Position,
    /// Moves the shortcut's lookahead applied, to take back.
    lookahead: Vec<Done>,
    limits: Limits,
    key: Vec<u8>,
    order: [usize; MAX_COLS],
    pool: Vec<Vec<Move>>,
    scratch: Vec<(u8, Move)>,
    relaxation: Relaxation,
    strips: Box<Strips>,
}

impl Search {
    pub fn new(pos: Position, node_limit: u64, deadline: Instant, memory_limit: usize) -> Self {
        let relaxation = Relaxation::new(&pos);
        let root = pos.clone();
        Search {
            pos,
            seen: KeySet::new(memory_limit),
            nodes: 0,
            path: Vec::new(),
            stopped: None,
            steps: Vec::new(),
            root,
            lookahead: Vec::new(),
            limits: Limits {
                node_limit,
                deadline,
            },
            key: Vec::with_capacity(256),
            order: [0; MAX_COLS],
            pool: Vec::new(),
            scratch: Vec::with_capacity(64),
            relaxation,
            strips: Box::new([[0; 52]; MAX_COLS]),
        }
    }

    fn settle(&mut self) {
        while let Some(mv) = self.pos.autoplay_move() {
            let done = self.pos.apply(mv);
            self.path.push(done);
        }
    }

    fn back_to(&mut self, mark: usize) {
        while self.path.len() > mark {
            let done = self.path.pop().expect("a move to take back");
            self.pos.undo(done);
        }
    }

    /// Search from the position; on a win `path` holds every move from the start.
    pub fn run(&mut self) -> Verdict {
        self.settle();
        if self.pos.won() {
            return Verdict::Won;
        }
        self.pos.key(&mut self.key, &mut self.order);
        let start = std::mem::take(&mut self.key);
        self.seen.insert(&start);
        self.key = start;
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

    fn check_budget(&self) -> Result<(), Stop> {
        self.limits.check(self.nodes, || self.seen.full())
    }

    /// Depth-first, with an explicit stack (a proof may go tens of thousands of moves
    /// deep): true on a win, with `path` holding it.
    fn dfs(&mut self) -> Result<bool, Stop> {
        struct Frame {
            moves: Vec<Move>,
            next: usize,
            /// The path's length before the move that made this frame's position.
            mark: usize,
        }
        if self.relaxation.dead(&self.pos, &mut self.strips) {
            return Ok(false);
        }
        let mut frames: Vec<Frame> = Vec::new();
        let mut root = Vec::with_capacity(32);
        self.pos.moves(&mut root, &mut self.scratch);
        frames.push(Frame {
            moves: root,
            next: 0,
            mark: self.path.len(),
        });
        while let Some(frame) = frames.last_mut() {
            if frame.next == frame.moves.len() {
                let done = frames.pop().expect("a frame");
                self.back_to(done.mark);
                self.pool.push(done.moves);
                continue;
            }
            let mv = frame.moves[frame.next];
            frame.next += 1;
            let before = self.path.len();
            let done = self.pos.apply(mv);
            self.path.push(done);
            self.settle();
            if self.pos.won() {
                // Where each move the search chose starts in `path` (auto-play follows it).
                self.steps = frames.iter().skip(1).map(|f| f.mark).collect();
                self.steps.push(before);
                return Ok(true);
            }
            // A stock play under way is no node: not stored, and given only the dealt
            // card's moves and the next deal.
            let fresh = mv == Move::DEAL && self.pos.fresh_waste_card();
            let new = fresh || {
                self.pos.key(&mut self.key, &mut self.order);
                self.seen.insert(&self.key)
            };
            if new {
                if !fresh {
                    self.nodes += 1;
                    self.check_budget()?;
                }
                if !self.relaxation.dead(&self.pos, &mut self.strips) {
                    let mut moves = self.pool.pop().unwrap_or_else(|| Vec::with_capacity(32));
                    self.pos.moves(&mut moves, &mut self.scratch);
                    if fresh {
                        moves.retain(|m| m.src == WASTE || m.src == DEAL);
                    }
                    frames.push(Frame {
                        moves,
                        next: 0,
                        mark: before,
                    });
                    continue;
                }
            }
            self.back_to(before);
        }
        Ok(false)
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
        let opening = self.steps.first().copied().unwrap_or(self.path.len());
        let mut out: Vec<Move> = self.path[..opening].iter().map(|d| d.mv).collect();
        // The keys of the positions the win passes, by their index along it.
        let mut along: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut bounds = self.steps.clone();
        bounds.push(self.path.len());
        for d in &self.path[..opening] {
            pos.apply(d.mv);
        }
        let start = pos.clone();
        for (index, window) in bounds.windows(2).enumerate() {
            pos.key(&mut self.key, &mut self.order);
            along.insert(self.key.clone(), index);
            for d in &self.path[window[0]..window[1]] {
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
            pos.moves(&mut firsts, &mut self.scratch);
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
                None => return self.path.iter().map(|d| d.mv).collect(),
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
        pos.moves(&mut moves, &mut self.scratch);
        let mut best: Option<(usize, Move)> = None;
        for mv in moves {
            let mark = self.path_scratch(pos, mv);
            let reach = if pos.won() {
                Some(last)
            } else {
                pos.key(&mut self.key, &mut self.order);
                along.get(&self.key).copied()
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
