//! Layered search: the depth-first search's proof, holding a layer of positions at a
//! time instead of every position (`docs/solver/layered.md`).
//!
//! No move lowers a position's *progress* (`progress`: cards dealt, sent home, turned
//! face up or played from the waste), so the positions of one progress value, a layer,
//! reach only their own layer and later ones.  The layers are searched in increasing
//! order: each from its entries (the positions earlier layers reached in it), depth-first
//! over its own positions, queueing the later layers' positions it meets as their
//! entries.  A layer's key set is dropped once it is searched: nothing can come back to
//! it.  The graph, its pruning (auto-play, dead ends, stock plays, the key's symmetries)
//! and so the positions are the depth-first search's: when the queues run out, the deal
//! is lost, with exactly as many positions counted.  A queued position is only its key
//! (`Position::restore_key` rebuilds it), so memory is about a key and its slot for each
//! position of the current layer and of the queues.
//!
//! It searches for proofs: it reports that it met a win, but keeps no line to it.

use crate::dead::{Relaxation, Strips};
use crate::game::{Done, Move, Position, DEAL, MAX_COLS, WASTE};
use crate::keyset::KeySet;
use crate::search::{Limits, Stop};
use std::collections::BTreeMap;
use std::time::Instant;

/// The cards dealt, sent home, turned face up and played from the waste, as one count
/// that no move lowers: a deal adds one (the card dealt, less one on the waste), a waste
/// card played one, a card sent home one (two from the waste), a turned card one; moves
/// between columns that turn nothing add none.
pub fn progress(pos: &Position) -> usize {
    let home: usize = pos.found.iter().map(|&f| f as usize).sum();
    let down: usize = pos.down.iter().map(|&d| d as usize).sum();
    2 * pos.dealt + home + (52 - down) + (52 - pos.waste.len())
}

/// One progress value's positions: every key met (a proof's transposition set, for this
/// layer) and the entries still to search from.
struct Layer {
    seen: KeySet,
    entries: Vec<u64>,
}

impl Layer {
    fn new(limit: usize) -> Self {
        Layer {
            seen: KeySet::new(limit),
            entries: Vec::new(),
        }
    }

    fn bytes(&self) -> usize {
        self.seen.bytes() + self.entries.capacity() * 8
    }
}

pub struct Layered {
    pos: Position,
    start: Position,
    waste0: Vec<u8>,
    pub nodes: u64,
    /// A position of the search was won (no line to it is kept).
    pub won: bool,
    limits: Limits,
    memory_limit: usize,
    /// The layer being searched, and its progress.
    current: Layer,
    level: usize,
    /// The later layers, by progress.
    later: BTreeMap<usize, Layer>,
    path: Vec<Done>,
    key: Vec<u8>,
    entry: Vec<u8>,
    order: [usize; MAX_COLS],
    pool: Vec<Vec<Move>>,
    scratch: Vec<(u8, Move)>,
    relaxation: Relaxation,
    strips: Box<Strips>,
    /// `HAVEN_PROVER_LAYERS` set: a line on standard error as each layer starts.
    log_layers: bool,
}

impl Layered {
    pub fn new(pos: Position, node_limit: u64, deadline: Instant, memory_limit: usize) -> Self {
        let relaxation = Relaxation::new(&pos);
        let waste0 = pos.waste.clone();
        Layered {
            start: pos.clone(),
            pos,
            waste0,
            nodes: 0,
            won: false,
            limits: Limits {
                node_limit,
                deadline,
            },
            memory_limit,
            current: Layer::new(memory_limit),
            level: 0,
            later: BTreeMap::new(),
            path: Vec::new(),
            key: Vec::with_capacity(256),
            entry: Vec::with_capacity(256),
            order: [0; MAX_COLS],
            pool: Vec::new(),
            scratch: Vec::with_capacity(64),
            relaxation,
            strips: Box::new([[0; 52]; MAX_COLS]),
            log_layers: std::env::var_os("HAVEN_PROVER_LAYERS").is_some(),
        }
    }

    /// Ok(true) when a won position was reached, Ok(false) when every position was
    /// searched (a proof that the start is lost).
    pub fn run(&mut self) -> Result<bool, Stop> {
        self.settle();
        if self.pos.won() {
            self.won = true;
            return Ok(true);
        }
        self.level = progress(&self.pos);
        self.pos.key(&mut self.key, &mut self.order);
        self.current.seen.insert(&self.key);
        self.nodes = 1;
        if self.relaxation.dead(&self.pos, &mut self.strips) {
            return Ok(false);
        }
        self.path.clear();
        if self.search_layer()? {
            return Ok(true);
        }
        while let Some(&level) = self.later.keys().next() {
            let layer = self.later.remove(&level).expect("a queued layer");
            self.current = layer;
            self.level = level;
            if self.log_layers {
                eprintln!(
                    "layer {} entries {} positions {} held_mb {} later_layers {}",
                    level,
                    self.current.entries.len(),
                    self.nodes,
                    self.held_bytes() >> 20,
                    self.later.len()
                );
            }
            // Nothing adds to this layer's entries now: its new positions are searched.
            for i in 0..self.current.entries.len() {
                let offset = self.current.entries[i];
                self.entry.clear();
                self.entry
                    .extend_from_slice(self.current.seen.key_at(offset as usize));
                self.pos.restore_key(&self.entry, &self.start, &self.waste0);
                self.path.clear();
                if self.search_layer()? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
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

    fn held_bytes(&self) -> usize {
        self.current.bytes() + self.later.values().map(Layer::bytes).sum::<usize>()
    }

    /// The memory of every layer held, and each key set's room to grow in it.
    fn over_memory(&mut self) -> bool {
        let total = self.held_bytes();
        if total > self.memory_limit {
            return true;
        }
        let spare = self.memory_limit - total;
        let mut full = false;
        for layer in std::iter::once(&mut self.current).chain(self.later.values_mut()) {
            layer.seen.set_limit(layer.seen.bytes() + spare);
            full |= layer.seen.full();
        }
        full
    }

    fn check_budget(&mut self) -> Result<(), Stop> {
        if self.nodes >= self.limits.node_limit {
            return Err(Stop::Nodes);
        }
        if self.nodes & 4095 == 0 {
            if Instant::now() > self.limits.deadline {
                return Err(Stop::Time);
            }
            if self.over_memory() {
                return Err(Stop::Memory);
            }
        }
        Ok(())
    }

    /// Depth-first over the current layer's positions from the position in `pos` (new,
    /// counted and alive), queueing the later layers' new positions; true on a win.
    fn search_layer(&mut self) -> Result<bool, Stop> {
        struct Frame {
            moves: Vec<Move>,
            next: usize,
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
                self.won = true;
                return Ok(true);
            }
            // A stock play under way is searched at once and never stored, as in `search`;
            // everything it leads to is in a later layer.
            let fresh = mv == Move::DEAL && self.pos.fresh_waste_card();
            let mut expand = fresh;
            if !fresh {
                self.pos.key(&mut self.key, &mut self.order);
                let level = progress(&self.pos);
                debug_assert!(level >= self.level, "a move lowered the progress");
                let kept = if level == self.level {
                    self.current.seen.insert_at(&self.key)
                } else {
                    let limit = self.memory_limit;
                    self.later
                        .entry(level)
                        .or_insert_with(|| Layer::new(limit))
                        .seen
                        .insert_at(&self.key)
                };
                if let Some(offset) = kept {
                    self.nodes += 1;
                    self.check_budget()?;
                    if !self.relaxation.dead(&self.pos, &mut self.strips) {
                        if level == self.level {
                            expand = true;
                        } else {
                            let layer = self.later.get_mut(&level).expect("the layer");
                            layer.entries.push(offset as u64);
                        }
                    }
                }
            } else if self.relaxation.dead(&self.pos, &mut self.strips) {
                expand = false;
            }
            if expand {
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
            self.back_to(before);
        }
        Ok(false)
    }
}
