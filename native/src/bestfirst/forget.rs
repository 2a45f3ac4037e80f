//! Forgetting at the memory limit: the best-first search keeps each queue's best
//! positions and the links to them, and drops everything else (the module docs of
//! `bestfirst` say what that costs the proof).

use super::{arena_chunk, node_of, tag_of, BestFirst, Node, ARENA_CHUNK, EXPANDED, KEEP_DIVISOR};
use crate::keyset::KeySet;
use crate::limits::Stop;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

impl BestFirst {
    /// Keep each queue's best `live / KEEP_DIVISOR` positions and the links to them;
    /// drop every other snapshot, link and key. The number of positions still queued, or
    /// `Stop::Memory` when even that leaves no room below the limit.
    pub(super) fn forget(&mut self, live: usize) -> Result<usize, Stop> {
        self.full = false;
        self.forgotten += 1;
        let n = self.queued.len();
        let mut kept = vec![false; n];
        let mut items: Vec<Vec<u64>> = Vec::with_capacity(self.queues.len());
        for q in &mut self.queues {
            let want = (live / KEEP_DIVISOR).max(1);
            let mut best = Vec::with_capacity(want);
            while best.len() < want {
                let Some(Reverse(item)) = q.heap.pop() else {
                    break;
                };
                let i = node_of(item) as usize;
                if self.queued[i].snap != EXPANDED {
                    kept[i] = true;
                    best.push(item);
                }
            }
            q.heap = BinaryHeap::new();
            items.push(best);
        }
        // Parents come before their children, so one backward sweep marks every link.
        let mut linked = kept.clone();
        for i in (0..n).rev() {
            let parent = self.queued[i].parent;
            if linked[i] && parent != u32::MAX {
                linked[parent as usize] = true;
            }
        }
        let mut index = vec![u32::MAX; n];
        let (mut queued, mut made) = (Vec::new(), Vec::new());
        let mut arena = vec![arena_chunk()];
        for i in (0..n).filter(|&i| linked[i]) {
            let node = self.queued[i];
            let moves = &self.made[node.seg as usize..(node.seg + node.seg_len) as usize];
            let snap = if kept[i] {
                let bytes = self.snapshot_bytes(node.snap);
                if arena[arena.len() - 1].len() + bytes.len() > ARENA_CHUNK {
                    arena.push(arena_chunk());
                }
                let last = arena.len() - 1;
                let at = (last * ARENA_CHUNK + arena[last].len()) as u64;
                arena[last].extend_from_slice(bytes);
                at
            } else {
                EXPANDED
            };
            index[i] = queued.len() as u32;
            queued.push(Node {
                snap,
                parent: if node.parent == u32::MAX {
                    u32::MAX
                } else {
                    index[node.parent as usize]
                },
                seg: made.len() as u32,
                ..node
            });
            made.extend_from_slice(moves);
        }
        (self.queued, self.made, self.arena) = (queued, made, arena);
        self.seen = KeySet::new(self.memory_limit / 2);
        let mut alive = 0;
        for j in 0..self.queued.len() {
            if self.queued[j].snap != EXPANDED {
                self.restore(self.queued[j].snap);
                self.pos.key(&mut self.key, &mut self.order);
                self.seen.insert(&self.key);
                alive += 1;
            }
        }
        for (q, best) in self.queues.iter_mut().zip(items) {
            for item in best {
                let i = node_of(item) as usize;
                let tag = tag_of(index[i]);
                q.heap.push(Reverse((item & !0xffff_ffff) | tag));
            }
        }
        if self.over_memory() {
            return Err(Stop::Memory);
        }
        Ok(alive)
    }
}
