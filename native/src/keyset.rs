//! The transposition set: exact keys (no fingerprints, so an exhausted search stays a
//! proof), stored back to back in fixed-size chunks, with an open-addressing table of
//! offsets.  About 35-100 bytes a position (the least in waste games, whose keys are
//! compact: `docs/solver/compact-keys.md`) instead of a boxed key's 150 or more, and its
//! size is known at any moment, so the search can stop at a memory limit instead of being
//! killed.  Chunks, not one growing vector: a vector that doubles holds twice its keys'
//! size while it copies, and the search would have to stop at half its memory.

pub struct KeySet {
    /// Full chunks and the one being filled; a key never straddles two.
    chunks: Vec<Vec<u8>>,
    /// 0 = empty; else `(bits << 34) | (offset + 1)`, `bits` being the hash's low 30 bits:
    /// they choose the slot (up to 2^30 slots) and tell most other keys apart without
    /// reading a chunk, and growing the table never reads the chunks either.
    table: Vec<u64>,
    mask: usize,
    len: usize,
    limit: usize,
}

const OFFSET_BITS: u32 = 34;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
const HASH_MASK: u64 = (1 << (64 - OFFSET_BITS)) - 1;
/// 4 MB a chunk, each allocated whole: the slack past the keys stays small, and 2^34
/// bytes of offsets are 4,096 chunks.
const CHUNK_BITS: u32 = 22;
const CHUNK: usize = 1 << CHUNK_BITS;

/// The key's hash: its low bits choose a slot and tag the key; the layered search's
/// shards take high ones.
#[inline]
pub fn hash(key: &[u8]) -> u64 {
    // FNV-1a over 8-byte words, then a final mix (splitmix64): keys are short and the
    // table needs good low bits (index) and high bits (tag).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut chunks = key.chunks_exact(8);
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 29;
    }
    for &b in chunks.remainder() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= key.len() as u64;
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// A chunk for keys, on huge pages where the kernel gives them (`huge`).
fn new_chunk() -> Vec<u8> {
    let mut chunk = Vec::with_capacity(CHUNK);
    crate::huge::advise(&mut chunk);
    chunk
}

/// The table doubles at half full; when doubling would pass the memory limit it fills on
/// up to this share (longer probes, no more memory) before the set is full.
const MAX_LOAD_PERCENT: usize = 85;

impl KeySet {
    /// A set that keeps within `limit` bytes (its own count: chunks and table).
    pub fn new(limit: usize) -> Self {
        let size = 1 << 16;
        KeySet {
            chunks: vec![new_chunk()],
            table: vec![0; size],
            mask: size - 1,
            len: 0,
            limit,
        }
    }

    /// Its memory: chunks and table.
    pub fn bytes(&self) -> usize {
        self.chunks.len() * CHUNK + self.table.len() * 8
    }

    /// Doubling the table holds the old one and the new one at once.
    fn may_grow(&self) -> bool {
        self.chunks.len() * CHUNK + self.table.len() * 8 * 3 <= self.limit
    }

    /// Would the next insert pass the memory limit (a new chunk, or a table that may
    /// neither grow nor fill further)?
    pub fn full(&self) -> bool {
        self.bytes() + CHUNK > self.limit
            || ((self.len + 1) * 100 > self.table.len() * MAX_LOAD_PERCENT && !self.may_grow())
    }

    /// Let the table grow only while `limit` allows (another set's share may change).
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    /// The key stored at `offset` (an `insert_at` answer).
    pub fn key_at(&self, offset: usize) -> &[u8] {
        let chunk = &self.chunks[offset >> CHUNK_BITS];
        let at = offset & (CHUNK - 1);
        let n = chunk[at] as usize;
        &chunk[at + 1..at + 1 + n]
    }

    /// Insert `key` (at most 255 bytes); true if it was not there.
    pub fn insert(&mut self, key: &[u8]) -> bool {
        self.insert_at(key).is_some()
    }

    /// Insert `key`; where it is kept (for `key_at`) if it was not there.
    pub fn insert_at(&mut self, key: &[u8]) -> Option<usize> {
        self.insert_hashed(key, hash(key))
    }

    /// Start loading the slot where a key of hash `h` would go: a caller with many keys
    /// to insert at once asks for the next ones' slots while it inserts these, so the
    /// table's cache misses overlap instead of coming one after another.
    #[inline]
    pub fn prefetch(&self, h: u64) {
        let slot = &self.table[(h & HASH_MASK) as usize & self.mask];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch never faults and changes nothing; the address is a slot.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(slot as *const u64 as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// `insert_at` with the key's `hash` already known.
    pub fn insert_hashed(&mut self, key: &[u8], h: u64) -> Option<usize> {
        debug_assert!(key.len() < 256);
        debug_assert_eq!(h, hash(key));
        let tag = h & HASH_MASK;
        let mut i = tag as usize & self.mask;
        loop {
            let slot = self.table[i];
            if slot == 0 {
                break;
            }
            if slot >> OFFSET_BITS == tag {
                let offset = ((slot & OFFSET_MASK) - 1) as usize;
                if self.key_at(offset) == key {
                    return None;
                }
            }
            i = (i + 1) & self.mask;
        }
        let mut last = self.chunks.len() - 1;
        if self.chunks[last].len() + 1 + key.len() > CHUNK {
            self.chunks.push(new_chunk());
            last += 1;
        }
        let chunk = &mut self.chunks[last];
        let offset = (last << CHUNK_BITS) | chunk.len();
        assert!((offset as u64) < OFFSET_MASK, "the key set is full");
        chunk.push(key.len() as u8);
        chunk.extend_from_slice(key);
        self.table[i] = (tag << OFFSET_BITS) | (offset as u64 + 1);
        self.len += 1;
        if self.len * 2 > self.table.len() && self.may_grow() {
            self.grow();
        }
        Some(offset)
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        assert!(size as u64 <= HASH_MASK + 1, "the key set is full");
        let mut table = vec![0; size];
        crate::huge::advise(&mut table);
        let old = std::mem::replace(&mut self.table, table);
        self.mask = size - 1;
        for slot in old {
            if slot == 0 {
                continue;
            }
            let mut i = (slot >> OFFSET_BITS) as usize & self.mask;
            while self.table[i] != 0 {
                i = (i + 1) & self.mask;
            }
            self.table[i] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{hash, KeySet, MAX_LOAD_PERCENT};

    #[test]
    fn keys_are_kept_exactly_through_growth() {
        let mut set = KeySet::new(usize::MAX);
        let keys: Vec<Vec<u8>> = (0..200_000u32)
            .map(|i| {
                let n = 1 + (i % 90) as usize;
                (0..n)
                    .map(|k| (i.wrapping_mul(2_654_435_761).rotate_left(k as u32) & 0xff) as u8)
                    .collect()
            })
            .collect();
        let mut distinct = std::collections::HashSet::new();
        for key in &keys {
            assert_eq!(set.insert(key), distinct.insert(key.clone()));
        }
        for key in &keys {
            assert!(!set.insert(key), "a stored key must be found again");
        }
        assert_eq!(set.len, distinct.len());
    }

    #[test]
    fn prefetched_inserts_with_known_hashes_are_plain_inserts() {
        let mut plain = KeySet::new(usize::MAX);
        let mut batched = KeySet::new(usize::MAX);
        let keys: Vec<Vec<u8>> = (0..100_000u32)
            .map(|i| (i % 70_000).to_le_bytes().to_vec())
            .collect();
        for batch in keys.chunks(32) {
            for key in batch {
                batched.prefetch(hash(key));
            }
            for key in batch {
                assert_eq!(batched.insert_hashed(key, hash(key)), plain.insert_at(key));
            }
        }
        assert_eq!(batched.len, 70_000);
    }

    #[test]
    fn keys_differing_in_one_byte_or_length_are_different() {
        let mut set = KeySet::new(usize::MAX);
        assert!(set.insert(&[1, 2, 3]));
        assert!(set.insert(&[1, 2, 4]));
        assert!(set.insert(&[1, 2]));
        assert!(set.insert(&[]));
        assert!(!set.insert(&[1, 2, 3]));
        assert!(!set.insert(&[]));
    }

    #[test]
    fn keys_are_found_across_chunks() {
        let mut set = KeySet::new(usize::MAX);
        // 250-byte keys: a chunk holds about 16,700; 300,000 fill 18 chunks.
        let key = |i: u32| {
            let mut k = vec![(i % 251) as u8; 250];
            k[..4].copy_from_slice(&i.to_le_bytes());
            k
        };
        for i in 0..300_000u32 {
            assert!(set.insert(&key(i)));
        }
        assert!(set.chunks.len() >= 18);
        for i in (0..300_000u32).step_by(7) {
            assert!(!set.insert(&key(i)));
        }
    }

    #[test]
    fn a_limited_set_fills_its_table_instead_of_passing_the_limit() {
        // 24 MB: a few chunks and a table that may double only while three copies fit.
        let limit = 24 << 20;
        let mut set = KeySet::new(limit);
        let mut i = 0u32;
        while !set.full() {
            assert!(set.insert(&i.to_le_bytes()));
            i += 1;
        }
        assert!(set.bytes() <= limit);
        assert!(
            set.len * 2 > set.table.len(),
            "it filled past half before stopping"
        );
        assert!(set.len * 100 <= set.table.len() * MAX_LOAD_PERCENT + 100);
        for j in (0..i).step_by(13) {
            assert!(!set.insert(&j.to_le_bytes()));
        }
    }
}
