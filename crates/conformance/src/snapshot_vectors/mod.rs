//! Snapshot conformance vectors (`conformance/snapshots/<physics-version>/`): small snapshot files,
//! each with the verdict a reader of `docs/protocol.md` must reach, so that a client in any
//! language can check its implementation of the header (and, for the payload checks, its decoder)
//! against the wrapper's.
//!
//! Each directory holds `.snap` files and a manifest, `vectors.json`: a JSON array with one object
//! per vector, `{name, about, file, match_id, key, expect}`. `key` is the hex of the 32-byte key
//! the reader restores with (or `null`); `expect` is `{"accept": {"tick", "steps", "digests"}}` or
//! `{"reject": "<ErrorKind>"}`. Several vectors may share a file (e.g. the authenticated snapshot
//! restored with the key, without a key and with a wrong key).
//!
//! [`generate`] makes every vector of a physics-version from the catalog scene `ball_drop`;
//! [`write`] writes those that do not exist yet and refuses to change one that does (released
//! bytes never change); [`check`] restores every file with
//! [`PinnedWorld::restore`](rapier_pinned::PinnedWorld::restore) under
//! `WorldConfig::new(version)?.with_match_id(match_id)`, exactly as a game would, and compares the
//! verdict with the manifest.
//!
//! Snapshot formats 1, 2 and 3 all have vectors: format 2's (flag bit 1, a compressed payload,
//! `docs/protocol.md` §3.1) and format 3's (a linked payload, §3.2) are compared, when accepted,
//! in a canonical form over the format-1 payload, since their bytes are not canonical across
//! targets. A format-3 vector may name a level file (`level`, in the same directory, §3.3) that
//! the reader loads and gives to the restore, and the level the reader's world is on
//! (`level_id`; default: the loaded level's). A format-4 vector (a delta, §3.4) may name a
//! baseline file (`baseline`: a format-1 snapshot in the same directory, whose payload is the
//! baseline), and the reader restores with that baseline.
//!
//! The generator never asks the wrapper which verdict a file gets: rejections are named from the
//! change made to the bytes (`docs/protocol.md` §5), and accepted worlds are continued from the
//! world that was snapshotted (not from a restore) to get the expected per-step digests.
//!
//! One idea a file, each using only the files listed before it:
//!
//! - `manifest`: a [`Vector`], the manifest that lists them (`vectors.json`), where they live,
//!   and the hex of keys and digests;
//! - `header`: the snapshot header's field offsets and the checksum and MAC over it;
//! - `checker`: the reader's side, every vector restored as a game would ([`check`]);
//! - `byte_edits`: the byte-mutation kit the rejections are made with;
//! - `world_edits`: the changes made to `accept.snap`'s world before it is re-encoded;
//! - `base`: the worlds and snapshots every vector is made from, and the generator's checks that
//!   its framing is the wrapper's;
//! - `level`: the same for the format-3 vectors, and the level files;
//! - `row`: a row of the table, and the rows assembled into vectors;
//! - `table`: [`generate`]'s table, one row a vector;
//! - `writer`: [`write`], which adds vectors and never changes a released one.

mod base;
mod byte_edits;
mod checker;
mod header;
mod level;
mod manifest;
mod row;
mod table;
mod world_edits;
mod writer;

pub use crate::verdict::{Accept, Expect};
pub use base::{MATCH_ID, OTHER_KEY, SCENE, STEPS, TEST_KEY, TICK, WIDE_MATCH_ID};
pub use checker::{check, check_dir, check_vector};
pub use level::level_files;
pub use manifest::{hex, manifest_json, parse_key, read_manifest, version_dir, Vector, MANIFEST};
pub use table::generate;
pub use writer::{write, write_to};
