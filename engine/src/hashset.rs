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
    /// The table before the last growth, kept (once [`KeySet::reset`] has been called) to
    /// be grown into again: memory already mapped, so no page faults. Empty otherwise.
    spare: Vec<K>,
    keep_spare: bool,
}

/// `size` slots of `empty`, in `spare`'s memory when it has room (memory already mapped
/// and touched: filling it costs less than the page faults of fresh memory), else fresh.
pub fn table_from<T: Copy>(spare: &mut Vec<T>, size: usize, empty: T) -> Vec<T> {
    let mut table = std::mem::take(spare);
    if table.capacity() < size {
        // Dropped first, so that the memory in use never exceeds what a fresh table took.
        drop(table);
        return vec![empty; size];
    }
    table.clear();
    table.resize(size, empty);
    table
}

/// Two tables' memory, in the order a table of `2^log2` slots grown by doubling should
/// use them (it alternates between them): the larger one for the largest size it holds.
pub fn reuse_order<T>(a: Vec<T>, b: Vec<T>, log2: u32) -> (Vec<T>, Vec<T>) {
    let (small, big) = if a.capacity() <= b.capacity() { (a, b) } else { (b, a) };
    let top = usize::BITS - 1 - big.capacity().max(1).leading_zeros();
    if top >= log2 && (top - log2).is_multiple_of(2) {
        (big, small)
    } else {
        (small, big)
    }
}

impl<K: SetKey> KeySet<K> {
    pub fn with_capacity_log2(log2: u32) -> Self {
        let size = 1usize << log2;
        KeySet { slots: vec![K::EMPTY; size], mask: size - 1, len: 0, grow_at: size / 10 * 7, spare: Vec::new(), keep_spare: false }
    }

    /// Empties the set down to `2^log2` slots, keeping its memory (the table and the one
    /// before it) to grow into again: a set emptied and filled again and again (one per
    /// pass of a search) maps its memory once. The same keys give the same answers.
    pub fn reset(&mut self, log2: u32) {
        let (first, second) = reuse_order(std::mem::take(&mut self.slots), std::mem::take(&mut self.spare), log2);
        self.spare = second;
        let mut first = first;
        let size = 1usize << log2;
        self.slots = table_from(&mut first, size, K::EMPTY);
        self.mask = size - 1;
        self.len = 0;
        self.grow_at = size / 10 * 7;
        self.keep_spare = true;
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
        self.slots = table_from(&mut self.spare, size, K::EMPTY);
        self.mask = size - 1;
        self.grow_at = size / 10 * 7;
        for &slot in old.iter() {
            if slot != K::EMPTY {
                let mut index = self.home(slot.untagged());
                while self.slots[index] != K::EMPTY {
                    index = (index + 1) & self.mask;
                }
                self.slots[index] = slot;
            }
        }
        if self.keep_spare {
            self.spare = old;
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

    #[test]
    fn a_reset_set_is_empty_and_grows_again_in_its_own_memory() {
        let mut set: KeySet<u64> = KeySet::with_capacity_log2(4);
        let mut x = 88172645463325252u64;
        for round in 0..6u64 {
            // Rounds of different sizes, so that the kept tables are sometimes too small.
            let keys = [3000, 200_000, 50, 70_000, 400_000, 10][round as usize];
            set.reset(4);
            assert!(set.is_empty() && set.capacity() == 16);
            let mut reference = std::collections::HashSet::new();
            for _ in 0..keys {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let key = (x % (keys as u64 * 2)) & !(1 << 63);
                assert_eq!(set.insert(key), reference.insert(key));
            }
            assert_eq!(set.len(), reference.len());
            for key in 0..keys as u64 * 2 {
                assert_eq!(set.contains(key), reference.contains(&key));
            }
        }
    }
}
