//! The seeded stream every generated scene draws from.

use rapier3d::math::Real;

/// SplitMix64 (Steele, Lea and Flood, 2014), written out rather than taken from `rand`: a scene
/// must build the same world for good, and a closed formula pins a stream that a crate's next
/// version may change.
pub struct Stream(u64);

impl Stream {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> Stream {
        Stream(seed)
    }

    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `[lo, hi)`, from 24 bits (exact in an `f32`).
    pub fn range(&mut self, lo: Real, hi: Real) -> Real {
        let unit = (self.next() >> 40) as Real / (1u64 << 24) as Real;
        lo + (hi - lo) * unit
    }
}
