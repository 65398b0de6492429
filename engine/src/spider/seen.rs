//! The positions a pass has seen, each with its node: a position met again by a
//! shorter path can take the shorter parent.

use crate::hashset::{reuse_order, table_from, KeySet};

/// A seen position: its key (tagged), its node and the node's depth or more (the depth
/// when the node was made or last took a shorter parent), so that most positions met
/// again are told apart without reading their node. 16 bytes, as a key and an id alone.
#[derive(Clone, Copy, Default)]
pub(super) struct Slot {
    key: u64,
    pub(super) id: u32,
    pub(super) depth: u16,
}

/// An open-addressing map from 63-bit position keys to [`Slot`]s: flat memory, linear
/// probing, grown at 70 % full.
pub(super) struct Seen {
    slots: Vec<Slot>,
    mask: usize,
    len: usize,
    grow_at: usize,
    /// The table before the last growth, to grow into again (see [`KeySet::reset`]).
    spare: Vec<Slot>,
}

/// Marks an occupied slot, so that the key 0 is a key like any other.
const TAG: u64 = 1 << 63;

/// What a pass keeps of the positions it has seen: [`Seen`] (each key with its node, so
/// that a position met again by a shorter path can take that parent) or, for a verdict
/// alone, the keys only ([`KeySet`]: half the memory, and no depth to keep).
pub(super) trait Visited {
    /// Whether positions met again may take a shorter parent.
    const SHORTER_PARENTS: bool;
    fn with_capacity_log2(log2: u32) -> Self;
    /// Empties the set down to `2^log2` slots, keeping its memory for the next pass.
    fn reset(&mut self, log2: u32);
    fn prefetch(&self, key: u64);
    /// `None` for a new key; else its slot's index and a copy (for [`KeySet`], a slot of
    /// depth 0: no path is shorter).
    fn insert(&mut self, key: u64, id: u32, depth: u16) -> Option<(usize, Slot)>;
    fn set_depth(&mut self, index: usize, depth: u16);
    /// The table's slots, as a power of two.
    fn slots_log2(&self) -> u32;
}

impl Visited for Seen {
    const SHORTER_PARENTS: bool = true;

    fn with_capacity_log2(log2: u32) -> Seen {
        let size = 1usize << log2;
        Seen { slots: vec![Slot::default(); size], mask: size - 1, len: 0, grow_at: size / 10 * 7, spare: Vec::new() }
    }

    fn reset(&mut self, log2: u32) {
        let (mut first, second) = reuse_order(std::mem::take(&mut self.slots), std::mem::take(&mut self.spare), log2);
        self.spare = second;
        let size = 1usize << log2;
        self.slots = table_from(&mut first, size, Slot::default());
        self.mask = size - 1;
        self.len = 0;
        self.grow_at = size / 10 * 7;
    }

    /// Asks the processor to bring `key`'s home slot into cache ahead of an insert.
    #[inline]
    fn prefetch(&self, key: u64) {
        crate::hashset::prefetch(&self.slots, self.home(key));
    }

    /// Inserts `key` (top bit clear) with node `id` at `depth`, or returns the slot it
    /// already has (its index and a copy).
    #[inline]
    fn insert(&mut self, key: u64, id: u32, depth: u16) -> Option<(usize, Slot)> {
        let tagged = key | TAG;
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot.key == tagged {
                return Some((index, slot));
            }
            if slot.key == 0 {
                self.slots[index] = Slot { key: tagged, id, depth };
                self.len += 1;
                if self.len >= self.grow_at {
                    self.grow();
                }
                return None;
            }
            index = (index + 1) & self.mask;
        }
    }

    /// The depth of the slot at `index` (as [`Visited::insert`] returned it) is now `depth`.
    #[inline]
    fn set_depth(&mut self, index: usize, depth: u16) {
        self.slots[index].depth = depth;
    }

    fn slots_log2(&self) -> u32 {
        self.slots.len().trailing_zeros()
    }
}

impl Seen {
    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let size = old.len() * 2;
        self.slots = table_from(&mut self.spare, size, Slot::default());
        self.mask = size - 1;
        self.grow_at = size / 10 * 7;
        for &slot in old.iter() {
            if slot.key != 0 {
                let mut index = self.home(slot.key & !TAG);
                while self.slots[index].key != 0 {
                    index = (index + 1) & self.mask;
                }
                self.slots[index] = slot;
            }
        }
        // Kept to grow into: a pass's set is reset for the next pass (see `Arena`).
        self.spare = old;
    }
}

impl Visited for KeySet {
    const SHORTER_PARENTS: bool = false;
    fn with_capacity_log2(log2: u32) -> Self {
        KeySet::with_capacity_log2(log2)
    }
    fn reset(&mut self, log2: u32) {
        KeySet::reset(self, log2)
    }
    #[inline]
    fn prefetch(&self, key: u64) {
        KeySet::prefetch(self, key)
    }
    #[inline]
    fn insert(&mut self, key: u64, _id: u32, _depth: u16) -> Option<(usize, Slot)> {
        if KeySet::insert(self, key) {
            None
        } else {
            Some((0, Slot::default()))
        }
    }
    #[inline]
    fn set_depth(&mut self, _index: usize, _depth: u16) {}
    fn slots_log2(&self) -> u32 {
        self.capacity().trailing_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_keeps_its_first_node_through_growth() {
        let mut seen = Seen::with_capacity_log2(2);
        let mut x = 88172645463325252u64;
        let mut keys = Vec::new();
        for id in 0..1000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let key = if id == 0 { 0 } else { x & !TAG };
            keys.push(key);
            assert!(seen.insert(key, id, (id % 300) as u16).is_none());
        }
        let (index, slot) = seen.insert(keys[7], 5000, 1).unwrap();
        assert_eq!((slot.id, slot.depth), (7, 7));
        seen.set_depth(index, 3);
        for (id, &key) in keys.iter().enumerate() {
            let (_, slot) = seen.insert(key, 5000, 1).unwrap();
            assert_eq!(slot.id, id as u32);
            assert_eq!(slot.depth, if id == 7 { 3 } else { (id % 300) as u16 });
        }
    }
}
