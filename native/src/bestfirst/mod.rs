//! Best-first search for a first win: the Python `games.solver.bestfirst`, over the
//! prover's positions and moves (stock plays included), so that its wins cost
//! milliseconds instead of seconds.
//!
//! Soundness is the depth-first search's: the same moves, auto-play, dead-end test and
//! key build the same graph of settled positions; every new key is queued once and
//! expanded once, so an empty queue is the same proof as an exhausted depth-first search.
//! Only the order differs: several queues (one per weight set, `weights_for`) take turns
//! choosing the next position, each by a heuristic a player would read off the table.
//!
//! Memory: a queued position is kept as a snapshot (its columns, foundations and stock
//! count: the waste follows from them, as in the key), with a parent link and the moves
//! from the parent; a win's path is rebuilt by walking the links.
//!
//! At its memory limit the search *forgets* (`forget`) instead of stopping: each queue
//! keeps its best positions, with the links to them, and everything else goes, the set
//! of positions met included. It may then meet a position twice, and an empty queue is
//! no longer a proof (the answer is `unknown`), but a win is still a line from the start
//! that the engine replays: the search is for wins, which a deal left undecided at the
//! final budgets needs most (`bench/README.md`, 2026-12-05).

mod forget;
mod weights;

use crate::dead::{Relaxation, Strips};
use crate::game::{Done, Move, Position, DEAL, MAX_COLS, WASTE};
use crate::keyset::KeySet;
use crate::limits::{Limits, Stop};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;
use weights::{weights_for, Weights};

/// A queued position.
#[derive(Clone, Copy)]
struct Node {
    /// Where its snapshot starts (`EXPANDED` once it was expanded).
    snap: u64,
    parent: u32,
    /// Its moves from the parent (one move and its auto-play, or a stock play) in `made`.
    seg: u32,
    seg_len: u32,
    /// Moves from the start.
    depth: u32,
}

const EXPANDED: u64 = u64::MAX;
/// At its memory limit each queue keeps this share of the positions still queued, its
/// best ones.
const KEEP_DIVISOR: usize = 8;

/// A queue item's low bits: `!node`, so that among equal priorities the newest comes
/// first.
fn tag_of(node: u32) -> u64 {
    (u32::MAX - node) as u64
}

/// The node a queue item stands for.
fn node_of(item: u64) -> u32 {
    u32::MAX - (item & 0xffff_ffff) as u32
}

/// A chunk of snapshots, on huge pages where the kernel gives them (`huge`).
fn arena_chunk() -> Vec<u8> {
    let mut chunk = Vec::with_capacity(ARENA_CHUNK);
    crate::huge::advise(&mut chunk);
    chunk
}
const ARENA_CHUNK: usize = 1 << 22;
/// Depths beyond this dive in no particular order (never reached in practice).
const DIVE_DEPTH: i64 = 1 << 24;

/// One queue: its scorer (None: the dive), cost per move, weight of the generator's
/// score, and its heap of `priority << 32 | !node` (newest first among equals).
struct Queue {
    scorer: Option<usize>,
    depth: i64,
    order: i64,
    heap: BinaryHeap<Reverse<u64>>,
}

pub struct BestFirst {
    pos: Position,
    /// The request's waste: with the dealt stock cards, what the waste may hold.
    waste0: Vec<u8>,
    seen: KeySet,
    pub nodes: u64,
    /// After a win: every move from the start.
    pub path: Vec<Move>,
    limits: Limits,
    memory_limit: usize,
    arena: Vec<Vec<u8>>,
    queued: Vec<Node>,
    made: Vec<Move>,
    scorers: Vec<Weights>,
    queues: Vec<Queue>,
    relaxation: Relaxation,
    strips: Box<Strips>,
    key: Vec<u8>,
    order: [usize; MAX_COLS],
    scratch: Vec<(u8, Move)>,
    undo: Vec<Done>,
    seg: Vec<Move>,
    /// The memory limit was met since the last `forget`.
    full: bool,
    /// How many times the search forgot (then an empty queue proves nothing).
    pub forgotten: u32,
}

impl BestFirst {
    pub fn new(pos: Position, node_limit: u64, deadline: Instant, memory_limit: usize) -> Self {
        let weights = weights_for(&pos.rules);
        let mut scorers: Vec<Weights> = Vec::new();
        let mut queues = Vec::new();
        for w in weights {
            let scorer = if w.dive {
                None
            } else {
                let base = Weights { depth: 0, ..w };
                Some(scorers.iter().position(|s| *s == base).unwrap_or_else(|| {
                    scorers.push(base);
                    scorers.len() - 1
                }))
            };
            queues.push(Queue {
                scorer,
                depth: w.depth,
                order: w.order,
                heap: BinaryHeap::new(),
            });
        }
        BestFirst {
            relaxation: Relaxation::new(&pos),
            waste0: pos.waste.clone(),
            pos,
            // The snapshots and queues take their share below the limit (`over_memory`).
            seen: KeySet::new(memory_limit / 2),
            nodes: 0,
            path: Vec::new(),
            limits: Limits {
                node_limit,
                deadline,
            },
            memory_limit,
            arena: vec![arena_chunk()],
            queued: Vec::new(),
            made: Vec::new(),
            scorers,
            queues,
            strips: Box::new([[0; 52]; MAX_COLS]),
            key: Vec::with_capacity(256),
            order: [0; MAX_COLS],
            scratch: Vec::with_capacity(64),
            undo: Vec::new(),
            seg: Vec::new(),
            full: false,
            forgotten: 0,
        }
    }

    /// Search from the position: `Ok(true)` on a win (`path`), `Ok(false)` when every
    /// reachable position was expanded (a proof), `Err` when a budget ran out.
    pub fn run(&mut self) -> Result<bool, Stop> {
        while let Some(mv) = self.pos.autoplay_move() {
            self.pos.apply(mv);
            self.seg.push(mv);
        }
        if self.pos.won() {
            self.path = std::mem::take(&mut self.seg);
            return Ok(true);
        }
        self.pos.key(&mut self.key, &mut self.order);
        self.seen.insert(&self.key);
        self.nodes = 1;
        if self.relaxation.dead(&self.pos, &mut self.strips) {
            return Ok(false);
        }
        let opening = std::mem::take(&mut self.seg);
        self.queue(u32::MAX, 0, &opening);
        // The start goes in as the Python search puts it: its score alone (the dive: 0).
        for q in 0..self.queues.len() {
            let prio = self.queues[q].scorer.map_or(0, |s| self.score(s));
            self.queues[q]
                .heap
                .push(Reverse((prio as u64) << 32 | tag_of(0)));
        }
        let mut turn = 0;
        let mut live = 1usize;
        while live > 0 {
            // Every queue holds every live position until the search forgets; then each
            // holds its own best ones.
            let Some(Reverse(item)) = self.queues[turn].heap.pop() else {
                if self.queues.iter().all(|q| q.heap.is_empty()) {
                    break;
                }
                turn = (turn + 1) % self.queues.len();
                continue;
            };
            turn = (turn + 1) % self.queues.len();
            let i = node_of(item);
            let node = self.queued[i as usize];
            if node.snap == EXPANDED {
                continue;
            }
            self.queued[i as usize].snap = EXPANDED;
            live -= 1;
            self.restore(node.snap);
            let mut moves = Vec::with_capacity(32);
            self.pos.moves(&mut moves, &mut self.scratch);
            for (rank_of, &mv) in moves.iter().enumerate() {
                let score = self.pos.generator_score(mv);
                let before = self.queued.len();
                if self.try_move(i, node.depth, mv, score, rank_of)? {
                    return Ok(true);
                }
                live += self.queued.len() - before;
            }
            if self.full {
                live = self.forget(live)?;
            }
        }
        if self.forgotten > 0 {
            return Err(Stop::Memory);
        }
        Ok(false)
    }

    /// The bytes of the snapshot at `snap` (as `restore` reads them).
    fn snapshot_bytes(&self, snap: u64) -> &[u8] {
        let chunk = &self.arena[(snap as usize) / ARENA_CHUNK];
        let start = (snap as usize) % ARENA_CHUNK;
        let mut at = start;
        for _ in 0..self.pos.rules.ncols {
            at += 2 + chunk[at] as usize;
        }
        &chunk[start..at + 5]
    }

    /// Play `mv` (and its auto-play) from the current position: a win, a new position to
    /// queue, or with stock plays the dealt card's moves and the next deal in turn.
    fn try_move(
        &mut self,
        parent: u32,
        depth: u32,
        mv: Move,
        score: i64,
        rank_of: usize,
    ) -> Result<bool, Stop> {
        let mark = self.undo.len();
        let seg_mark = self.seg.len();
        self.undo.push(self.pos.apply(mv));
        self.seg.push(mv);
        while let Some(auto) = self.pos.autoplay_move() {
            self.undo.push(self.pos.apply(auto));
            self.seg.push(auto);
        }
        if self.pos.won() {
            self.path = self.path_to(parent);
            self.path.extend_from_slice(&self.seg);
            return Ok(true);
        }
        if mv == Move::DEAL && self.pos.fresh_waste_card() {
            // The middle of a stock play: no node (`Position::fresh_waste_card`).
            if !self.relaxation.dead(&self.pos, &mut self.strips) {
                let mut moves = Vec::with_capacity(16);
                self.pos.moves(&mut moves, &mut self.scratch);
                moves.retain(|m| m.src == WASTE || m.src == DEAL);
                for next in moves {
                    let score = self.pos.generator_score(next);
                    if self.try_move(parent, depth, next, score, rank_of)? {
                        return Ok(true);
                    }
                }
            }
        } else {
            self.pos.key(&mut self.key, &mut self.order);
            if self.seen.insert(&self.key) {
                self.nodes += 1;
                match self.check_budget() {
                    // Forgotten after this expansion (`run`).
                    Err(Stop::Memory) => self.full = true,
                    other => other?,
                }
                if !self.relaxation.dead(&self.pos, &mut self.strips) {
                    let seg = std::mem::take(&mut self.seg);
                    // From the expansion's start: a stock play's deals are part of the child's moves.
                    self.queue(parent, depth, &seg);
                    self.seg = seg;
                    let j = self.queued.len() - 1;
                    self.push_queues(j, rank_of, score);
                }
            }
        }
        while self.undo.len() > mark {
            let done = self.undo.pop().expect("a move to take back");
            self.pos.undo(done);
        }
        self.seg.truncate(seg_mark);
        Ok(false)
    }

    /// The heuristic of scorer `s` on the current position.
    fn score(&self, s: usize) -> i64 {
        weights::score(&self.scorers[s], &self.pos)
    }

    fn check_budget(&self) -> Result<(), Stop> {
        self.limits.check(self.nodes, || self.over_memory())
    }

    fn over_memory(&self) -> bool {
        self.seen.full() || self.bytes() > self.memory_limit / 2
    }

    /// What the snapshots, links and queues hold (the key set counts its own).
    fn bytes(&self) -> usize {
        let heaps: usize = self.queues.iter().map(|q| q.heap.capacity() * 8).sum();
        self.arena.len() * ARENA_CHUNK
            + self.queued.capacity() * std::mem::size_of::<Node>()
            + self.made.capacity() * std::mem::size_of::<Move>()
            + heaps
    }

    /// Store the current position as a node: its snapshot, link and moves (`depth`: the
    /// parent's).
    fn queue(&mut self, parent: u32, depth: u32, seg: &[Move]) {
        self.pos.snapshot(&mut self.key);
        let mut last = self.arena.len() - 1;
        if self.arena[last].len() + self.key.len() > ARENA_CHUNK {
            self.arena.push(arena_chunk());
            last += 1;
        }
        let chunk = &mut self.arena[last];
        let snap = ((last * ARENA_CHUNK) + chunk.len()) as u64;
        chunk.extend_from_slice(&self.key);
        self.queued.push(Node {
            snap,
            parent,
            seg: self.made.len() as u32,
            seg_len: seg.len() as u32,
            depth: depth + seg.len() as u32,
        });
        self.made.extend_from_slice(seg);
    }

    /// Queue node `j` (the current position) in every queue.
    fn push_queues(&mut self, j: usize, rank_of: usize, gen: i64) {
        let depth = self.queued[j].depth as i64;
        let mut scores = [0i64; 4];
        for (s, slot) in scores.iter_mut().enumerate().take(self.scorers.len()) {
            *slot = self.score(s);
        }
        let tag = tag_of(j as u32);
        for q in &mut self.queues {
            let prio = match q.scorer {
                None => ((DIVE_DEPTH - depth).max(0) << 8) + rank_of.min(255) as i64,
                Some(s) => scores[s] + q.depth * depth - q.order * gen.clamp(0, 200) / 100,
            };
            q.heap.push(Reverse((prio.max(0) as u64) << 32 | tag));
        }
    }

    /// Make the position the snapshot at `snap`.
    fn restore(&mut self, snap: u64) {
        let chunk = &self.arena[(snap as usize) / ARENA_CHUNK];
        let mut at = (snap as usize) % ARENA_CHUNK;
        let mut placed = [false; 52];
        for i in 0..self.pos.rules.ncols {
            let n = chunk[at] as usize;
            self.pos.down[i] = chunk[at + 1];
            let cards = &chunk[at + 2..at + 2 + n];
            self.pos.cols[i].clear();
            self.pos.cols[i].extend_from_slice(cards);
            for &c in cards {
                placed[c as usize] = true;
            }
            at += 2 + n;
        }
        for s in 0..4 {
            self.pos.found[s] = chunk[at + s];
            for r in 0..chunk[at + s] {
                placed[s * 13 + r as usize] = true;
            }
        }
        self.pos.dealt = chunk[at + 4] as usize;
        // Cards leave the waste only from its top and only deals add to it, so it is the
        // request's waste and the dealt cards, in order, less those placed elsewhere.
        self.pos.waste.clear();
        let dealt = &self.pos.stock[..self.pos.dealt];
        for &c in self.waste0.iter().chain(dealt.iter()) {
            if !placed[c as usize] {
                self.pos.waste.push(c);
            }
        }
    }

    /// Every move from the start to node `i`'s position.
    fn path_to(&self, mut i: u32) -> Vec<Move> {
        let mut parts = Vec::new();
        while i != u32::MAX {
            let node = self.queued[i as usize];
            parts.push(&self.made[node.seg as usize..(node.seg + node.seg_len) as usize]);
            i = node.parent;
        }
        parts.iter().rev().flat_map(|p| p.iter().copied()).collect()
    }
}
