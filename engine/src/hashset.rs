//! An open-addressing set of 64-bit keys: flat memory, linear probing, and a rate that
//! stays flat as searches grow (no chains, no per-entry allocation).

pub struct KeySet {
    slots: Vec<u64>,
    mask: usize,
    len: usize,
    grow_at: usize,
}

const EMPTY: u64 = 0;
const TAG: u64 = 1 << 63;

impl KeySet {
    pub fn with_capacity_log2(log2: u32) -> Self {
        let size = 1usize << log2;
        KeySet { slots: vec![EMPTY; size], mask: size - 1, len: 0, grow_at: size / 10 * 7 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// Asks the processor to bring `key`'s home slot into cache ahead of an insert.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.slots.as_ptr().add(self.home(key)) as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Inserts `key` (below 2^63); returns false if it was already there.
    #[inline]
    pub fn insert(&mut self, key: u64) -> bool {
        let tagged = key | TAG;
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot == tagged {
                return false;
            }
            if slot == EMPTY {
                self.slots[index] = tagged;
                self.len += 1;
                if self.len >= self.grow_at {
                    self.grow();
                }
                return true;
            }
            index = (index + 1) & self.mask;
        }
    }

    pub fn contains(&self, key: u64) -> bool {
        let tagged = key | TAG;
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot == tagged {
                return true;
            }
            if slot == EMPTY {
                return false;
            }
            index = (index + 1) & self.mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let size = old.len() * 2;
        self.slots = vec![EMPTY; size];
        self.mask = size - 1;
        self.grow_at = size / 10 * 7;
        for slot in old {
            if slot != EMPTY {
                let mut index = self.home(slot & !TAG);
                while self.slots[index] != EMPTY {
                    index = (index + 1) & self.mask;
                }
                self.slots[index] = slot;
            }
        }
    }
}

impl KeySet {
    /// Removes `key` if present (backward-shift deletion keeps probe runs intact).
    pub fn remove(&mut self, key: u64) -> bool {
        let tagged = key | TAG;
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot == EMPTY {
                return false;
            }
            if slot == tagged {
                break;
            }
            index = (index + 1) & self.mask;
        }
        let mut hole = index;
        let mut next = (hole + 1) & self.mask;
        loop {
            let slot = self.slots[next];
            if slot == EMPTY {
                break;
            }
            let home = self.home(slot & !TAG);
            // Move `slot` back into the hole unless its home lies cyclically in (hole, next].
            let stays = if hole <= next { hole < home && home <= next } else { hole < home || home <= next };
            if !stays {
                self.slots[hole] = slot;
                hole = next;
            }
            next = (next + 1) & self.mask;
        }
        self.slots[hole] = EMPTY;
        self.len -= 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_agree_with_std() {
        let mut set = KeySet::with_capacity_log2(4);
        let mut reference = std::collections::HashSet::new();
        let mut x = 88172645463325252u64;
        for step in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let key = x % 5000;
            if step % 3 == 0 {
                assert_eq!(set.remove(key), reference.remove(&key));
            } else {
                assert_eq!(set.insert(key), reference.insert(key));
            }
            assert_eq!(set.len(), reference.len());
        }
        for key in 0..5000 {
            assert_eq!(set.contains(key), reference.contains(&key));
        }
    }
}
