//! [`PhysicsVersion`]: the number a client announces and a snapshot carries, as a type of its
//! own. A leaf module, so that the errors can carry one; which versions are released, their
//! names ([`PhysicsVersion::V1`], [`PhysicsVersion::CURRENT`]) and what each pins are the
//! table's, in `version.rs` ([`crate::version_table`]).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::num::ParseIntError;
use std::str::FromStr;

/// A physics-version: the number a client announces and a snapshot carries.
///
/// A type of its own, not a `u32`, so that a physics-version cannot be passed where a tick, a
/// match id or a count is meant, nor one of those where a physics-version is. Any number is a
/// `PhysicsVersion`, a released one or not: a snapshot header or a client's hello may carry a
/// number this build does not know, and [`crate::entry`] is what says whether it is released.
///
/// The number goes in through [`PhysicsVersion::new`] and comes out through
/// [`PhysicsVersion::get`], not through a public field: there is no invariant to guard, but the
/// field is private so that every crossing between a physics-version and a bare number (header
/// bytes, the wasm boundary, arithmetic) is spelled out in words and easy to find, where `.0`
/// would read as any tuple's first element.
///
/// Every form of it is the bare number's: serialized as the `u32` it holds
/// (`#[serde(transparent)]`: the same bincode, JSON and wire bytes as before it was a type),
/// [`Display`](fmt::Display) prints the number (`physics-version 2`), and
/// [`FromStr`] reads it as clap's `u32` parser does, with the same error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PhysicsVersion(u32);

impl PhysicsVersion {
    /// The physics-version numbered `number`, released or not.
    pub const fn new(number: u32) -> PhysicsVersion {
        PhysicsVersion(number)
    }

    /// Its number.
    pub const fn get(self) -> u32 {
        self.0
    }
}

impl fmt::Display for PhysicsVersion {
    /// The bare number: `2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Why a text is not a physics-version ([`PhysicsVersion`]'s [`FromStr`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePhysicsVersionError(ParseError);

#[derive(Clone, Debug, PartialEq, Eq)]
enum ParseError {
    /// Not a (64-bit) integer.
    NotAnInteger(ParseIntError),
    /// An integer, but not a `u32`.
    OutOfRange(i64),
}

impl fmt::Display for ParsePhysicsVersionError {
    /// The messages of clap's `u32` parser (`invalid digit found in string`,
    /// `4294967296 is not in 0..=4294967295`), so `--physics-version V` reports a bad `V` as it
    /// did when it was a `u32`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ParseError::NotAnInteger(e) => fmt::Display::fmt(e, f),
            ParseError::OutOfRange(n) => write!(f, "{n} is not in 0..={}", u32::MAX),
        }
    }
}

impl std::error::Error for ParsePhysicsVersionError {}

impl FromStr for PhysicsVersion {
    type Err = ParsePhysicsVersionError;

    /// A decimal number from 0 to `u32::MAX`, optionally with a leading `+`. Read as an `i64`
    /// first and then range-checked, as clap reads a `u32` argument, so that a negative or too
    /// large number is reported as out of range, not as a bad digit.
    fn from_str(text: &str) -> Result<PhysicsVersion, ParsePhysicsVersionError> {
        let wide: i64 = text
            .parse()
            .map_err(|e| ParsePhysicsVersionError(ParseError::NotAnInteger(e)))?;
        u32::try_from(wide)
            .map(PhysicsVersion)
            .map_err(|_| ParsePhysicsVersionError(ParseError::OutOfRange(wide)))
    }
}
