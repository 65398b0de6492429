//! The positions a pass has seen, each with its node: a position met again by a
//! shorter path can take the shorter parent.

/// An open-addressing map from 63-bit position keys to node ids: flat memory, linear
/// probing, 16 bytes a slot, grown at 70 % full.
pub(super) struct Seen {
    slots: Vec<(u64, u32)>,
    mask: usize,
    len: usize,
    grow_at: usize,
}

/// Marks an occupied slot, so that the key 0 is a key like any other.
const TAG: u64 = 1 << 63;

impl Seen {
    pub(super) fn with_capacity_log2(log2: u32) -> Seen {
        let size = 1usize << log2;
        Seen { slots: vec![(0, 0); size], mask: size - 1, len: 0, grow_at: size / 10 * 7 }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// Asks the processor to bring `key`'s home slot into cache ahead of an insert.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.slots.as_ptr().add(self.home(key)) as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Inserts `key` (top bit clear) with node `id`, or returns the node it already has.
    #[inline]
    pub(super) fn insert(&mut self, key: u64, id: u32) -> Option<u32> {
        let tagged = key | TAG;
        let mut index = self.home(key);
        loop {
            let (slot, node) = self.slots[index];
            if slot == tagged {
                return Some(node);
            }
            if slot == 0 {
                self.slots[index] = (tagged, id);
                self.len += 1;
                if self.len >= self.grow_at {
                    self.grow();
                }
                return None;
            }
            index = (index + 1) & self.mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let size = old.len() * 2;
        self.slots = vec![(0, 0); size];
        self.mask = size - 1;
        self.grow_at = size / 10 * 7;
        for (slot, node) in old {
            if slot != 0 {
                let mut index = self.home(slot & !TAG);
                while self.slots[index].0 != 0 {
                    index = (index + 1) & self.mask;
                }
                self.slots[index] = (slot, node);
            }
        }
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
            assert_eq!(seen.insert(key, id), None);
        }
        for (id, &key) in keys.iter().enumerate() {
            assert_eq!(seen.insert(key, 5000), Some(id as u32));
        }
    }
}
