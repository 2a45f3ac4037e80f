//! Layered search: the depth-first search's proof, holding a layer of positions at a
//! time instead of every position (`docs/solver/layered.md`).
//!
//! No move lowers a position's *progress* (`progress`: cards dealt, sent home, turned
//! face up or played from the waste), so the positions of one progress value, a layer,
//! reach only their own layer and later ones.  The layers are searched in increasing
//! order: each from its entries (the positions earlier layers reached in it), depth-first
//! over its own positions, queueing the later layers' positions it meets in their files
//! (`spill.rs`), read back and deduplicated when their turn comes.  A layer's key sets
//! are dropped once it is searched: nothing can come back to it.  The graph, its pruning
//! (auto-play, dead ends, stock plays, the key's symmetries) and so the positions are the
//! depth-first search's: when the queues run out, the deal is lost, with exactly as many
//! positions counted.  A queued position is only its key (`Position::restore_key`
//! rebuilds it), so memory is about a key and its slot for each position of the current
//! layer; the later layers are on disk.
//!
//! Several threads (`HAVEN_PROVER_THREADS`, default one) share a layer's entries; each
//! layer's keys are split among shards by hash, each behind its own lock, so a position
//! is claimed (inserted) by exactly one thread, which alone searches from it.
//!
//! It searches for proofs: it reports that it met a win, but keeps no line to it.

use crate::dead::Relaxation;
use crate::game::Position;
use crate::keyset::{hash, KeySet};
use crate::limits::{Limits, Stop};
use crate::spill::{LayerFiles, Pending};
use crate::walk::Walk;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
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

/// Above any progress: 2 · 52 dealt and three counts of at most 52.
const LEVELS: usize = 2 * 52 + 3 * 52 + 1;

/// Keys read back from a layer file per batch of prefetched slots: enough misses in
/// flight to keep the memory busy, few enough that the first slots are still cached.
const LOAD_BATCH: usize = 32;

/// The later layers' files may hold this much at once unless `HAVEN_PROVER_DISK_MB` says.
const DEFAULT_DISK_MB: u64 = 64_000;

/// One shard of a layer: the keys met (a proof's transposition set, for these keys) and
/// the entries still to search from, as offsets of their keys.
struct Shard {
    seen: KeySet,
    entries: Vec<u64>,
}

impl Shard {
    /// Insert `key` (of hash `h`); true if it is new, and then, with `entry`, an entry
    /// of the layer too.
    fn claim(&mut self, key: &[u8], h: u64, entry: bool) -> bool {
        let Some(offset) = self.seen.insert_hashed(key, h) else {
            return false;
        };
        if entry {
            self.entries.push(offset as u64);
        }
        true
    }

    fn bytes(&self) -> usize {
        self.seen.bytes() + self.entries.capacity() * 8
    }
}

/// What the threads share: every layer's shards (made when first needed, dropped once
/// searched), the later layers' files, the count of positions, and why the search stopped.
struct Shared {
    layers: Vec<Vec<Mutex<Option<Shard>>>>,
    files: LayerFiles,
    shards: usize,
    memory_limit: usize,
    limits: Limits,
    nodes: AtomicU64,
    won: AtomicBool,
    stop: Mutex<Option<Stop>>,
    halted: AtomicBool,
    /// The next entry of the current layer to claim, over its shards' entries in order.
    next_entry: AtomicUsize,
}

impl Shared {
    fn shard_of_hash(&self, h: u64) -> usize {
        (h >> 40) as usize % self.shards
    }

    /// Insert `key` in its shard of layer `level`; true if it is new, and then, with
    /// `entry`, an entry of the layer too (under the same lock).
    fn insert(&self, level: usize, key: &[u8], entry: bool) -> bool {
        let h = hash(key);
        self.with_shard(level, h, |shard| shard.claim(key, h, entry))
    }

    fn halt(&self, why: Option<Stop>) {
        if let Some(stop) = why {
            let mut kept = self.stop.lock().expect("the stop");
            if kept.is_none() {
                *kept = Some(stop);
            }
        }
        self.halted.store(true, Ordering::SeqCst);
    }

    /// A layer file that could not be written or read stops the search as memory does:
    /// its storage ran out.
    fn storage_failed(&self, error: std::io::Error) -> Stop {
        eprintln!("layered search: the layer files: {}", error);
        Stop::Memory
    }

    /// Read layer `level`'s file into its shards: each new key is a position, counted,
    /// and an entry of the layer. Only the main thread runs here, between layers. The
    /// keys come in batches whose slots are prefetched before any is inserted: a big
    /// layer's inserts are random reads of a table of gigabytes, and one at a time each
    /// waits for its cache miss (`bench/README.md`).
    fn load(&self, level: usize) -> Result<(), Stop> {
        let Some(mut keys) = self.files.take(level).map_err(|e| self.storage_failed(e))? else {
            return Ok(());
        };
        let mut key = Vec::with_capacity(256);
        let mut batch = Vec::with_capacity(LOAD_BATCH * 64);
        let mut spans: Vec<(usize, usize, u64)> = Vec::with_capacity(LOAD_BATCH);
        let mut more = true;
        while more {
            batch.clear();
            spans.clear();
            while spans.len() < LOAD_BATCH {
                more = keys
                    .next_into(&mut key)
                    .map_err(|e| self.storage_failed(e))?;
                if !more {
                    break;
                }
                spans.push((batch.len(), key.len(), hash(&key)));
                batch.extend_from_slice(&key);
            }
            for &(_, _, h) in &spans {
                self.with_shard(level, h, |shard| shard.seen.prefetch(h));
            }
            let mut new = 0;
            for &(at, len, h) in &spans {
                let key = &batch[at..at + len];
                new += usize::from(self.with_shard(level, h, |shard| shard.claim(key, h, true)));
            }
            for _ in 0..new {
                self.count()?;
            }
        }
        Ok(())
    }

    /// Run `f` on the shard of layer `level` that keys of hash `h` belong to (made when
    /// first needed), under its lock.
    fn with_shard<T>(&self, level: usize, h: u64, f: impl FnOnce(&mut Shard) -> T) -> T {
        let s = self.shard_of_hash(h);
        let mut shard = self.layers[level][s].lock().expect("a shard");
        let limit = self.memory_limit;
        f(shard.get_or_insert_with(|| Shard {
            seen: KeySet::new(limit),
            entries: Vec::new(),
        }))
    }

    /// Every shard's memory, and each key set's room to grow in what is left.
    fn over_memory(&self) -> bool {
        let total = self.held_bytes();
        if total > self.memory_limit {
            return true;
        }
        let spare = self.memory_limit - total;
        let mut full = false;
        for level in &self.layers {
            for shard in level {
                if let Some(held) = shard.lock().expect("a shard").as_mut() {
                    held.seen.set_limit(held.seen.bytes() + spare);
                    full |= held.seen.full();
                }
            }
        }
        full
    }

    fn held_bytes(&self) -> usize {
        let mut total = 0;
        for level in &self.layers {
            for shard in level {
                if let Some(held) = shard.lock().expect("a shard").as_ref() {
                    total += held.bytes();
                }
            }
        }
        total
    }

    /// Count a new position; every 4,096th checks the clock and the memory.
    fn count(&self) -> Result<(), Stop> {
        let nodes = self.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        if nodes >= self.limits.node_limit {
            return Err(Stop::Nodes);
        }
        if nodes & 4095 == 0 {
            if Instant::now() > self.limits.deadline {
                return Err(Stop::Time);
            }
            if self.over_memory() {
                return Err(Stop::Memory);
            }
        }
        Ok(())
    }
}

pub struct Layered {
    start: Position,
    waste0: Vec<u8>,
    pub nodes: u64,
    /// A position of the search was won (no line to it is kept).
    pub won: bool,
    shared: Shared,
    relaxation: Relaxation,
    threads: usize,
    /// `HAVEN_PROVER_LAYERS` set: a line on standard error as each layer starts.
    log_layers: bool,
}

/// One thread's walk and its queued keys.
struct Walker<'a> {
    shared: &'a Shared,
    relaxation: &'a Relaxation,
    start: &'a Position,
    waste0: &'a [u8],
    walk: Walk,
    level: usize,
    entry: Vec<u8>,
    pending: Pending,
}

impl Layered {
    pub fn new(pos: Position, node_limit: u64, deadline: Instant, memory_limit: usize) -> Self {
        let threads = std::env::var("HAVEN_PROVER_THREADS")
            .ok()
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(1)
            .clamp(1, 64);
        // One shard a thread would make the threads wait on each other; each shard's key
        // set costs a chunk (4 MB) when first used, so not many more.
        let shards = if threads == 1 { 1 } else { 4 * threads };
        let layers = (0..LEVELS)
            .map(|_| (0..shards).map(|_| Mutex::new(None)).collect())
            .collect();
        Layered {
            relaxation: Relaxation::new(&pos),
            waste0: pos.waste.clone(),
            start: pos,
            nodes: 0,
            won: false,
            shared: Shared {
                layers,
                files: LayerFiles::from_env(LEVELS, DEFAULT_DISK_MB),
                shards,
                memory_limit,
                limits: Limits {
                    node_limit,
                    deadline,
                },
                nodes: AtomicU64::new(0),
                won: AtomicBool::new(false),
                stop: Mutex::new(None),
                halted: AtomicBool::new(false),
                next_entry: AtomicUsize::new(0),
            },
            threads,
            log_layers: std::env::var_os("HAVEN_PROVER_LAYERS").is_some(),
        }
    }

    /// Ok(true) when a won position was reached, Ok(false) when every position was
    /// searched (a proof that the start is lost).
    pub fn run(&mut self) -> Result<bool, Stop> {
        let answer = self.search();
        self.nodes = self.shared.nodes.load(Ordering::SeqCst);
        self.won = self.shared.won.load(Ordering::SeqCst);
        if self.log_layers {
            eprintln!(
                "layered search: {} positions, the layer files at most {} MB",
                self.nodes,
                self.shared.files.peak() >> 20
            );
        }
        answer
    }

    fn walker(&self) -> Walker<'_> {
        Walker {
            shared: &self.shared,
            relaxation: &self.relaxation,
            start: &self.start,
            waste0: &self.waste0,
            walk: Walk::new(self.start.clone()),
            level: 0,
            entry: Vec::with_capacity(256),
            pending: Pending::new(LEVELS),
        }
    }

    fn search(&mut self) -> Result<bool, Stop> {
        let mut first = Walk::new(self.start.clone());
        first.settle();
        if first.pos.won() {
            self.shared.won.store(true, Ordering::SeqCst);
            return Ok(true);
        }
        let level = progress(&first.pos);
        first.write_key();
        // The start is the first entry: counted here, searched (unless a dead end) as
        // any entry is.
        self.shared.insert(level, &first.key, true);
        self.shared.nodes.store(1, Ordering::SeqCst);
        for level in level..LEVELS {
            self.shared.load(level)?;
            let counts: Vec<usize> = self.shared.layers[level]
                .iter()
                .map(|s| {
                    s.lock()
                        .expect("a shard")
                        .as_ref()
                        .map_or(0, |h| h.entries.len())
                })
                .collect();
            let total: usize = counts.iter().sum();
            if total > 0 {
                if self.log_layers {
                    eprintln!(
                        "layer {} entries {} positions {} held_mb {} files_mb {}",
                        level,
                        total,
                        self.shared.nodes.load(Ordering::Relaxed),
                        self.shared.held_bytes() >> 20,
                        self.shared.files.held() >> 20
                    );
                }
                self.shared.next_entry.store(0, Ordering::SeqCst);
                let threads = self.threads.min(total);
                let this = &*self;
                std::thread::scope(|scope| {
                    for _ in 1..threads {
                        scope.spawn(|| this.walker().search_entries(level, &counts));
                    }
                    this.walker().search_entries(level, &counts);
                });
                if self.shared.halted.load(Ordering::SeqCst) {
                    if self.shared.won.load(Ordering::SeqCst) {
                        return Ok(true);
                    }
                    let stop = self.shared.stop.lock().expect("the stop").take();
                    return Err(stop.unwrap_or(Stop::Time));
                }
            }
            for shard in &self.shared.layers[level] {
                *shard.lock().expect("a shard") = None;
            }
        }
        Ok(false)
    }
}

impl<'a> Walker<'a> {
    /// Claim the layer's entries one at a time (`counts`: each shard's, in order) and
    /// search from each, until none is left or the search halts; then write out the
    /// later layers' keys it queued.
    fn search_entries(&mut self, level: usize, counts: &[usize]) {
        self.level = level;
        self.search_claimed(counts);
        if let Err(error) = self.pending.flush(&self.shared.files) {
            let stop = self.shared.storage_failed(error);
            self.shared.halt(Some(stop));
        }
    }

    fn search_claimed(&mut self, counts: &[usize]) {
        let level = self.level;
        let shared = self.shared;
        loop {
            if shared.halted.load(Ordering::Relaxed) {
                return;
            }
            let mut claimed = shared.next_entry.fetch_add(1, Ordering::Relaxed);
            let mut shard = 0;
            while shard < counts.len() && claimed >= counts[shard] {
                claimed -= counts[shard];
                shard += 1;
            }
            if shard == counts.len() {
                return;
            }
            {
                let held = shared.layers[level][shard].lock().expect("a shard");
                let held = held.as_ref().expect("a shard with entries");
                let offset = held.entries[claimed] as usize;
                self.entry.clear();
                self.entry.extend_from_slice(held.seen.key_at(offset));
            }
            self.walk
                .pos
                .restore_key(&self.entry, self.start, self.waste0);
            self.walk.path.clear();
            // Counted when read back; a dead end is searched no further.
            if self.walk.dead(self.relaxation) {
                continue;
            }
            match self.search_layer() {
                Ok(false) => {}
                Ok(true) => {
                    shared.won.store(true, Ordering::SeqCst);
                    shared.halt(None);
                }
                // Halted: another thread already said why.
                Err(Stop::Halted) => {}
                Err(stop) => shared.halt(Some(stop)),
            }
        }
    }

    /// Depth-first over the current layer's positions from the walk's position (new,
    /// counted and alive), queueing every later layer's position it meets (new or not:
    /// the layer's key set, read back from its file, will tell); true on a win.
    fn search_layer(&mut self) -> Result<bool, Stop> {
        let (shared, current, pending) = (self.shared, self.level, &mut self.pending);
        let won = self.walk.depth_first(self.relaxation, |walk| {
            let level = progress(&walk.pos);
            debug_assert!(level >= current, "a move lowered the progress");
            if level > current {
                pending
                    .push(&shared.files, level, &walk.key)
                    .map_err(|e| shared.storage_failed(e))?;
                return Ok(false);
            }
            if !shared.insert(level, &walk.key, false) {
                return Ok(false);
            }
            shared.count()?;
            if shared.halted.load(Ordering::Relaxed) {
                return Err(Stop::Halted);
            }
            Ok(true)
        })?;
        Ok(won.is_some())
    }
}
