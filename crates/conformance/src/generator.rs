//! The seeded generator of the 10,000 random sweep cases (seed 20261021).
//!
//! SplitMix64 (Steele, Lea & Flood 2014; the public-domain reference by Vigna), chosen over a
//! crate's RNG because the vectors are language-neutral: any implementation must be able to
//! regenerate them from this description, and `rand`'s value streams are not stable across
//! versions. Each component in [−10, 10) is `(-10 + 20 · (x >> 40) / 2^24) as f32`, computed in
//! f64 (exact) and rounded to nearest f32; `x` is the next SplitMix64 output. Per case, in order:
//! a0.xyz, da.xyz, b0.xyz, db.xyz; both radii are 1.

use crate::oracle::SphereMotion;

/// The generator's seed for `conformance/sweeps/random.csv`.
pub const SEED: u64 = 20261021;
/// How many random cases `conformance/sweeps/random.csv` holds.
pub const CASES: usize = 10_000;

/// SplitMix64.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A component in [−10, 10), as described in the module docs.
    pub fn component(&mut self) -> f32 {
        let k = (self.next_u64() >> 40) as f64;
        (-10.0 + 20.0 * k / 16_777_216.0) as f32
    }

    fn vector(&mut self) -> [f32; 3] {
        [self.component(), self.component(), self.component()]
    }
}

/// The random cases, in order.
pub fn random_cases(seed: u64, count: usize) -> Vec<(SphereMotion, SphereMotion)> {
    let mut rng = SplitMix64(seed);
    (0..count)
        .map(|_| {
            let (a0, da, b0, db) = (rng.vector(), rng.vector(), rng.vector(), rng.vector());
            (
                SphereMotion {
                    start: a0,
                    displacement: da,
                    radius: 1.0,
                },
                SphereMotion {
                    start: b0,
                    displacement: db,
                    radius: 1.0,
                },
            )
        })
        .collect()
}
