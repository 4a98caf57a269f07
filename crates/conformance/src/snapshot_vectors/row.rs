//! A row of [`generate`](super::generate)'s table (a vector: its verdict, its bytes or an earlier
//! row's file, how the reader restores it and what was done to the bytes), and the rows
//! assembled into the manifest's vectors with their files' bytes.

use std::collections::{BTreeMap, BTreeSet};

use rapier_pinned::LevelId;

use super::base::MATCH_ID;
use super::manifest::{hex, Vector};
use crate::verdict::Expect;
use crate::GenerateError;

/// One row of [`generate`](super::generate)'s table: a vector, and its file's bytes unless it restores an earlier
/// row's file again.
pub(super) struct Row {
    /// The vector's name.
    name: &'static str,
    /// Its verdict.
    expect: Expect,
    /// The bytes of its file; `None`: an earlier row's file.
    bytes: Option<Vec<u8>>,
    /// Its file; `None`: `<name>.snap`.
    file: Option<&'static str>,
    /// The key it is restored with.
    key: Option<[u8; 32]>,
    /// The match it is restored into.
    match_id: u64,
    /// The level file given to the restore.
    level: Option<&'static str>,
    /// The level the reader's world is on, when not the level file's.
    level_id: Option<[u8; 32]>,
    /// The baseline file given to the restore.
    baseline: Option<&'static str>,
    /// What was done to the bytes.
    about: String,
}

/// A row whose restore succeeds with `expect` (the verdict of the world that was snapshotted).
pub(super) fn accept(name: &'static str, expect: &Expect) -> Row {
    Row::new(name, expect.clone())
}

/// A row whose restore fails with the `rapier_pinned::ErrorKind` named `kind`.
pub(super) fn reject(name: &'static str, kind: &str) -> Row {
    Row::new(name, Expect::Reject(kind.to_string()))
}

impl Row {
    /// A row restored from its own file without a key into match 7, as yet without bytes.
    fn new(name: &'static str, expect: Expect) -> Row {
        Row {
            name,
            expect,
            bytes: None,
            file: None,
            key: None,
            match_id: MATCH_ID,
            level: None,
            level_id: None,
            baseline: None,
            about: String::new(),
        }
    }

    /// Restored with the level in `file` (one of [`level_files`](super::level_files)), its world on that level.
    pub(super) fn level(mut self, file: &'static str) -> Row {
        self.level = Some(file);
        self
    }

    /// Restored into a world on the level `id` (rather than the level file's).
    pub(super) fn level_id(mut self, id: LevelId) -> Row {
        self.level_id = Some(id.0);
        self
    }

    /// Restored as a delta against the payload of `file` (an earlier row's format-1 snapshot).
    pub(super) fn baseline(mut self, file: &'static str) -> Row {
        self.baseline = Some(file);
        self
    }

    /// The bytes of the row's (new) file.
    pub(super) fn bytes(mut self, bytes: impl AsRef<[u8]>) -> Row {
        self.bytes = Some(bytes.as_ref().to_vec());
        self
    }

    /// The row's file is `file` rather than `<name>.snap`; without [`Row::bytes`], that of an
    /// earlier row, restored again.
    pub(super) fn file(mut self, file: &'static str) -> Row {
        self.file = Some(file);
        self
    }

    /// Restored with `key` rather than without a key.
    pub(super) fn key(mut self, key: [u8; 32]) -> Row {
        self.key = Some(key);
        self
    }

    /// Restored into a world of `match_id` rather than [`MATCH_ID`].
    pub(super) fn match_id(mut self, match_id: u64) -> Row {
        self.match_id = match_id;
        self
    }

    /// What was done to the bytes: the manifest's `about`.
    pub(super) fn about(mut self, about: impl Into<String>) -> Row {
        self.about = about.into();
        self
    }
}

/// The table's vectors with their files' bytes, in order. Err if a name comes twice, a file is
/// made twice, or a row without bytes names no earlier row's file.
pub(super) fn assemble(table: Vec<Row>) -> Result<Vec<(Vector, Vec<u8>)>, GenerateError> {
    let mut names = BTreeSet::new();
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut out = Vec::new();
    for row in table {
        if !names.insert(row.name) {
            return Err(GenerateError::NameTwice(row.name));
        }
        let file = row
            .file
            .map_or_else(|| format!("{}.snap", row.name), str::to_string);
        let bytes = match row.bytes {
            Some(_) if files.contains_key(&file) => {
                return Err(GenerateError::FileTwice(file));
            }
            Some(bytes) => {
                files.insert(file.clone(), bytes.clone());
                bytes
            }
            None => files
                .get(&file)
                .cloned()
                .ok_or_else(|| GenerateError::NoBytes {
                    name: row.name,
                    file: file.clone(),
                })?,
        };
        let vector = Vector {
            name: row.name.to_string(),
            about: row.about,
            file,
            match_id: row.match_id,
            key: row.key.map(|k| hex(&k)),
            level: row.level.map(str::to_string),
            level_id: row.level_id.map(|k| hex(&k)),
            baseline: row.baseline.map(str::to_string),
            expect: row.expect,
        };
        out.push((vector, bytes));
    }
    Ok(out)
}
