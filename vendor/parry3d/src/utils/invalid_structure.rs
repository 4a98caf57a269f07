//! The error of the `validate` methods that check a decoded structure (rapier-pinned patch).

use alloc::string::String;
use core::fmt;

/// A structure that breaks an invariant parry's operations rely on, such as an index out of
/// range: the kind of structure, and what is wrong with it.
///
/// Structures built through parry's constructors always pass their `validate` method; one
/// decoded from untrusted bytes (serde) may not, and would then panic, loop or allocate without
/// bound in a later query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidStructure {
    /// The kind of structure: `"Bvh"`, `"TriMesh"`, …
    pub structure: &'static str,
    /// What is wrong, with the indices involved.
    pub detail: String,
}

impl InvalidStructure {
    /// The error `detail` on a `structure`.
    pub fn new(structure: &'static str, detail: String) -> Self {
        Self { structure, detail }
    }
}

impl fmt::Display for InvalidStructure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}: {}", self.structure, self.detail)
    }
}

impl core::error::Error for InvalidStructure {}
