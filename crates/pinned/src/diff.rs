//! Field-by-field differences: what a config mismatch names (a leaf: every module that compares
//! configs, parameters or settings uses it). Values are compared typed (floats by their bits)
//! and printed bit-exact.

use rapier3d::dynamics::{
    CcdPersistentContactPolicy, CcdRelativeMotion, FrictionModel, SoftPatchConstraints,
};

/// One pinned field's value, typed. Two values are equal when they are the same variant with
/// the same value, floats bit for bit (`-0.0 != 0.0`, a NaN equals the same NaN).
#[derive(Copy, Clone, Debug)]
#[non_exhaustive]
pub enum FieldValue {
    /// A float, printed bit-exact: `value (0xbits)`.
    Real(f32),
    /// A whole number (a count, a tick rate, a physics-version's number), printed as it is.
    Whole(u64),
    /// A switch, printed `true` or `false`.
    Flag(bool),
    /// A name or a version, printed as it is.
    Text(&'static str),
    /// A list of names, printed joined by commas (the build features).
    List(&'static [&'static str]),
    /// rapier's friction model, printed as its variant's name.
    FrictionModel(FrictionModel),
    /// The fork's CCD relative-motion mode, printed as its variant's name.
    CcdMode(CcdRelativeMotion),
    /// The fork's CCD persistent-contact policy, printed as its variant's name.
    CcdPolicy(CcdPersistentContactPolicy),
    /// What a soft body's patch constraints do, printed as its variant's name.
    PatchConstraints(SoftPatchConstraints),
}

impl PartialEq for FieldValue {
    /// The same variant and value; floats by their bits.
    fn eq(&self, other: &Self) -> bool {
        use FieldValue::*;
        match (self, other) {
            (Real(a), Real(b)) => a.to_bits() == b.to_bits(),
            (Whole(a), Whole(b)) => a == b,
            (Flag(a), Flag(b)) => a == b,
            (Text(a), Text(b)) => a == b,
            (List(a), List(b)) => a == b,
            (FrictionModel(a), FrictionModel(b)) => a == b,
            (CcdMode(a), CcdMode(b)) => a == b,
            (CcdPolicy(a), CcdPolicy(b)) => a == b,
            (PatchConstraints(a), PatchConstraints(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for FieldValue {}

impl std::fmt::Display for FieldValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldValue::Real(x) => f.write_str(&real(*x)),
            FieldValue::Whole(n) => write!(f, "{n}"),
            FieldValue::Flag(b) => write!(f, "{b}"),
            FieldValue::Text(t) => f.write_str(t),
            FieldValue::List(names) => f.write_str(&names.join(",")),
            FieldValue::FrictionModel(m) => write!(f, "{m:?}"),
            FieldValue::CcdMode(m) => write!(f, "{m:?}"),
            FieldValue::CcdPolicy(p) => write!(f, "{p:?}"),
            FieldValue::PatchConstraints(c) => write!(f, "{c:?}"),
        }
    }
}

/// One field that differs: its name and both values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDiff {
    /// The field, e.g. `dt`, `soft_bodies.recovery.overlap_split` or `gravity.y`.
    pub field: &'static str,
    /// The pinned value (the first of two entries compared).
    pub pinned: FieldValue,
    /// The value found (in a snapshot or an adopted world; the second entry compared).
    pub found: FieldValue,
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

/// A field list: every field's name and value, in a fixed order.
pub type Fields = Vec<(&'static str, FieldValue)>;

/// Pairs two field lists of the same shape by position and keeps those whose values differ.
pub(crate) fn diff_fields(a: Fields, b: Fields) -> Vec<FieldDiff> {
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
pub(crate) fn gravity_fields(g: [f32; 3]) -> Fields {
    ["gravity.x", "gravity.y", "gravity.z"]
        .into_iter()
        .zip(g)
        .map(|(name, x)| (name, FieldValue::Real(x)))
        .collect()
}
