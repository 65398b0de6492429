//! An open-addressing set of 64-bit or 128-bit keys: flat memory, linear probing, and a
//! rate that stays flat as searches grow (no chains, no per-entry allocation). Every
//! engine module keeps the positions it has seen in one.

/// A key the set can hold: an unsigned integer whose top bit is free (the set tags
/// occupied slots with it, so that zero stays "empty").
pub trait SetKey: Copy + Eq {
    const EMPTY: Self;
    const TAG: Self;
    fn tagged(self) -> Self;
    fn untagged(self) -> Self;
    /// A well-mixed 64-bit value that picks the key's home slot.
    fn spread(self) -> u64;
}

impl SetKey for u64 {
    const EMPTY: u64 = 0;
    const TAG: u64 = 1 << 63;
    #[inline]
    fn tagged(self) -> u64 {
        self | Self::TAG
    }
    #[inline]
    fn untagged(self) -> u64 {
        self & !Self::TAG
    }
    #[inline]
    fn spread(self) -> u64 {
        self.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20
    }
}

impl SetKey for u128 {
    const EMPTY: u128 = 0;
    const TAG: u128 = 1 << 127;
    #[inline]
    fn tagged(self) -> u128 {
        self | Self::TAG
    }
    #[inline]
    fn untagged(self) -> u128 {
        self & !Self::TAG
    }
    #[inline]
    fn spread(self) -> u64 {
        // 128-bit keys are hashes already: their low half is as good as any.
        self as u64
    }
}

pub struct KeySet<K: SetKey = u64> {
    slots: Vec<K>,
    mask: usize,
    len: usize,
    grow_at: usize,
}

impl<K: SetKey> KeySet<K> {
    pub fn with_capacity_log2(log2: u32) -> Self {
        let size = 1usize << log2;
        KeySet { slots: vec![K::EMPTY; size], mask: size - 1, len: 0, grow_at: size / 10 * 7 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The number of slots (room before growing: 70 % of it).
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Empties the set, keeping its memory.
    pub fn clear(&mut self) {
        self.slots.fill(K::EMPTY);
        self.len = 0;
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn home(&self, key: K) -> usize {
        key.spread() as usize & self.mask
    }

    /// Asks the processor to bring `key`'s home slot into cache ahead of an insert.
    #[inline]
    pub fn prefetch(&self, key: K) {
        prefetch(&self.slots, self.home(key));
    }

    /// Inserts `key` (its top bit clear); returns false if it was already there.
    #[inline]
    pub fn insert(&mut self, key: K) -> bool {
        let tagged = key.tagged();
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot == tagged {
                return false;
            }
            if slot == K::EMPTY {
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

    pub fn contains(&self, key: K) -> bool {
        let tagged = key.tagged();
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot == tagged {
                return true;
            }
            if slot == K::EMPTY {
                return false;
            }
            index = (index + 1) & self.mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let size = old.len() * 2;
        self.slots = vec![K::EMPTY; size];
        self.mask = size - 1;
        self.grow_at = size / 10 * 7;
        for slot in old {
            if slot != K::EMPTY {
                let mut index = self.home(slot.untagged());
                while self.slots[index] != K::EMPTY {
                    index = (index + 1) & self.mask;
                }
                self.slots[index] = slot;
            }
        }
    }
}

impl<K: SetKey> KeySet<K> {
    /// Removes `key` if present (backward-shift deletion keeps probe runs intact).
    pub fn remove(&mut self, key: K) -> bool {
        let tagged = key.tagged();
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot == K::EMPTY {
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
            if slot == K::EMPTY {
                break;
            }
            let home = self.home(slot.untagged());
            // Move `slot` back into the hole unless its home lies cyclically in (hole, next].
            let stays = if hole <= next { hole < home && home <= next } else { hole < home || home <= next };
            if !stays {
                self.slots[hole] = slot;
                hole = next;
            }
            next = (next + 1) & self.mask;
        }
        self.slots[hole] = K::EMPTY;
        self.len -= 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_agree_with_std() {
        let mut set: KeySet<u64> = KeySet::with_capacity_log2(4);
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

/// Asks the processor to bring `slots[index]` into cache ahead of its use (a hint: it
/// does nothing where the processor has no such instruction, or `index` is out of range).
#[inline]
pub fn prefetch<T>(slots: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(slot) = slots.get(index) {
        // SAFETY: a prefetch reads nothing; the address is a slot of `slots`.
        unsafe { std::arch::x86_64::_mm_prefetch(slot as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slots, index);
}
