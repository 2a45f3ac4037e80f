//! The depth-first walk both proofs share: the depth-first search (`search.rs`) stores and
//! expands every new position, the layered search (`layered.rs`) expands its own layer's
//! and queues the others.  The loop (moves, auto-play, stock plays, dead ends, taking
//! moves back) is this one; what a search does with a position it reaches is its `visit`.

use crate::dead::{Relaxation, Strips};
use crate::game::{Done, Move, Position, DEAL, MAX_COLS, WASTE};
use crate::limits::Stop;

/// A position with the moves that made it, and the scratch space of the search from it.
pub struct Walk {
    pub pos: Position,
    pub path: Vec<Done>,
    /// The key of the position `visit` is given.
    pub key: Vec<u8>,
    pub order: [usize; MAX_COLS],
    pub scratch: Vec<(u8, Move)>,
    pool: Vec<Vec<Move>>,
    strips: Box<Strips>,
}

impl Walk {
    pub fn new(pos: Position) -> Self {
        Walk {
            pos,
            path: Vec::new(),
            key: Vec::with_capacity(256),
            order: [0; MAX_COLS],
            scratch: Vec::with_capacity(64),
            pool: Vec::new(),
            strips: Box::new([[0; 52]; MAX_COLS]),
        }
    }

    /// Safe auto-play to the foundations, recorded in `path`.
    pub fn settle(&mut self) {
        while let Some(mv) = self.pos.autoplay_move() {
            let done = self.pos.apply(mv);
            self.path.push(done);
        }
    }

    pub fn back_to(&mut self, mark: usize) {
        while self.path.len() > mark {
            let done = self.path.pop().expect("a move to take back");
            self.pos.undo(done);
        }
    }

    pub fn write_key(&mut self) {
        self.pos.key(&mut self.key, &mut self.order);
    }

    pub fn dead(&mut self, relaxation: &Relaxation) -> bool {
        relaxation.dead(&self.pos, &mut self.strips)
    }

    /// Depth-first from `pos` (settled, not won, not a dead end), with an explicit stack
    /// (a proof may go tens of thousands of moves deep).  Every position reached but a
    /// stock play under way (searched at once, never stored) is given to `visit` with its
    /// key in `key`: true to search on from it unless it is a dead end.  On a win, `path`
    /// holds it and the answer is where each move the search chose starts in `path`
    /// (auto-play follows it).
    pub fn depth_first(
        &mut self,
        relaxation: &Relaxation,
        mut visit: impl FnMut(&Walk) -> Result<bool, Stop>,
    ) -> Result<Option<Vec<usize>>, Stop> {
        struct Frame {
            moves: Vec<Move>,
            next: usize,
            /// The path's length before the move that made this frame's position.
            mark: usize,
        }
        let mut frames: Vec<Frame> = Vec::new();
        let mut root = self.pool.pop().unwrap_or_else(|| Vec::with_capacity(32));
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
                let mut steps: Vec<usize> = frames.iter().skip(1).map(|f| f.mark).collect();
                steps.push(before);
                return Ok(Some(steps));
            }
            let fresh = mv == Move::DEAL && self.pos.fresh_waste_card();
            let search_on = fresh || {
                self.write_key();
                visit(self)?
            };
            if search_on && !self.dead(relaxation) {
                let mut moves = self.pool.pop().unwrap_or_else(|| Vec::with_capacity(32));
                self.pos.moves(&mut moves, &mut self.scratch);
                if fresh {
                    // A stock play under way: only the dealt card's moves and the next deal.
                    moves.retain(|m| m.src == WASTE || m.src == DEAL);
                }
                frames.push(Frame {
                    moves,
                    next: 0,
                    mark: before,
                });
                continue;
            }
            self.back_to(before);
        }
        Ok(None)
    }
}
