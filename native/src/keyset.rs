//! The transposition set: exact keys (no fingerprints, so an exhausted search stays a
//! proof), stored back to back in one arena, with an open-addressing table of offsets.
//! About 60-110 bytes a position instead of a boxed key's 150 or more, and its size is
//! known at any moment, so the search can stop at a memory limit instead of being killed.

pub struct KeySet {
    arena: Vec<u8>,
    /// 0 = empty; else `(bits << 34) | (offset + 1)`, `bits` being the hash's low 30 bits:
    /// they choose the slot (up to 2^30 slots) and tell most other keys apart without
    /// reading the arena, and growing the table never reads the arena either.
    table: Vec<u64>,
    mask: usize,
    len: usize,
}

const OFFSET_BITS: u32 = 34;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
const HASH_MASK: u64 = (1 << (64 - OFFSET_BITS)) - 1;

#[inline]
fn hash(key: &[u8]) -> u64 {
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

impl KeySet {
    pub fn new() -> Self {
        let size = 1 << 16;
        KeySet {
            arena: Vec::with_capacity(1 << 20),
            table: vec![0; size],
            mask: size - 1,
            len: 0,
        }
    }

    /// Bytes the next growth would hold at once (the old table and the new one).
    pub fn bytes_after_growth(&self) -> usize {
        let arena = if self.arena.len() + 256 > self.arena.capacity() {
            self.arena.capacity() * 2
        } else {
            self.arena.capacity()
        };
        let table = if (self.len + 1) * 2 > self.table.len() {
            self.table.len() * 8 * 3
        } else {
            self.table.len() * 8
        };
        arena + table
    }

    fn key_at(&self, offset: usize) -> &[u8] {
        let n = self.arena[offset] as usize;
        &self.arena[offset + 1..offset + 1 + n]
    }

    /// Insert `key` (at most 255 bytes); true if it was not there.
    pub fn insert(&mut self, key: &[u8]) -> bool {
        debug_assert!(key.len() < 256);
        let tag = hash(key) & HASH_MASK;
        let mut i = tag as usize & self.mask;
        loop {
            let slot = self.table[i];
            if slot == 0 {
                break;
            }
            if slot >> OFFSET_BITS == tag {
                let offset = ((slot & OFFSET_MASK) - 1) as usize;
                if self.key_at(offset) == key {
                    return false;
                }
            }
            i = (i + 1) & self.mask;
        }
        let offset = self.arena.len();
        self.arena.push(key.len() as u8);
        self.arena.extend_from_slice(key);
        self.table[i] = (tag << OFFSET_BITS) | (offset as u64 + 1);
        self.len += 1;
        if self.len * 2 > self.table.len() {
            self.grow();
        }
        true
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        assert!(size as u64 <= HASH_MASK + 1, "the key set is full");
        let old = std::mem::replace(&mut self.table, vec![0; size]);
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
    use super::KeySet;

    #[test]
    fn keys_are_kept_exactly_through_growth() {
        let mut set = KeySet::new();
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
    fn keys_differing_in_one_byte_or_length_are_different() {
        let mut set = KeySet::new();
        assert!(set.insert(&[1, 2, 3]));
        assert!(set.insert(&[1, 2, 4]));
        assert!(set.insert(&[1, 2]));
        assert!(set.insert(&[]));
        assert!(!set.insert(&[1, 2, 3]));
        assert!(!set.insert(&[]));
    }

    #[test]
    fn growth_is_announced_before_it_happens() {
        let mut set = KeySet::new();
        let before = set.bytes_after_growth();
        for i in 0..100_000u32 {
            set.insert(&i.to_le_bytes());
        }
        assert!(set.bytes_after_growth() > before);
    }
}
