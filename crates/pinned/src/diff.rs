//! Field-by-field differences as text: what a config mismatch names (a leaf: every module that
//! compares configs, parameters or settings uses it).

/// One field that differs: its name and both values as bit-exact text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDiff {
    /// The field, e.g. `dt`, `soft_bodies.recovery.overlap_split` or `gravity.y`.
    pub field: String,
    /// The pinned value (the first of two entries compared).
    pub pinned: String,
    /// The value found (in a snapshot or an adopted world; the second entry compared).
    pub found: String,
}

impl std::fmt::Display for FieldDiff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: pinned {}, found {}",
            self.field, self.pinned, self.found
        )
    }
}

/// Pairs two field lists of the same shape by position and keeps those whose text differs.
pub(crate) fn diff_fields(a: Vec<(String, String)>, b: Vec<(String, String)>) -> Vec<FieldDiff> {
    a.into_iter()
        .zip(b)
        .filter(|(x, y)| x.1 != y.1)
        .map(|((field, pinned), (_, found))| FieldDiff {
            field,
            pinned,
            found,
        })
        .collect()
}

/// A float as text that tells every bit pattern apart: `value (0xbits)`.
pub(crate) fn real(x: f32) -> String {
    format!("{x:?} (0x{:08x})", x.to_bits())
}

/// The three gravity components as `gravity.x`, `gravity.y`, `gravity.z`.
pub(crate) fn gravity_fields(g: [f32; 3]) -> Vec<(String, String)> {
    ["gravity.x", "gravity.y", "gravity.z"]
        .iter()
        .zip(g)
        .map(|(name, x)| (name.to_string(), real(x)))
        .collect()
}
