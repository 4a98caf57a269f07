//! No source file of the workspace's crates is over 800 lines: a longer file holds several ideas,
//! and its reader has to find the one they came for (issue 46 for the tool's `src/`, every
//! crate's since issue 65). Every file under `crates/*/src/` counts, at any depth; `vendor/` does
//! not (the engine, upstream's code with our patches, is not ours to split).
//!
//! A file may stay over the limit only as an exception of [`EXCEPTIONS`], with why. An exception
//! that is no longer over the limit fails the test too, so that none outlives its reason.

use std::path::Path;

/// The most lines a source file may have.
const LIMIT: usize = 800;

/// The files allowed over [`LIMIT`], each with why (one idea that splitting would only
/// scatter). None today: the planted test below shows the list is read.
const EXCEPTIONS: &[(&str, &str)] = &[];

/// Every file under `crates/*/src/` of `root` (a workspace) with its number of lines, by its
/// path from `root` with `/` separators, sorted.
fn source_files(root: &Path) -> Vec<(String, usize)> {
    fn walk(dir: &Path, name: &str, found: &mut Vec<(String, usize)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let file = path.file_name().unwrap().to_str().unwrap();
            let name = format!("{name}/{file}");
            if path.is_dir() {
                walk(&path, &name, found);
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                found.push((name, text.lines().count()));
            }
        }
    }
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let krate = entry.unwrap().path();
        let src = krate.join("src");
        if src.is_dir() {
            let name = krate.file_name().unwrap().to_str().unwrap();
            walk(&src, &format!("crates/{name}/src"), &mut found);
        }
    }
    found.sort();
    found
}

/// What is wrong with `files` against `limit` and `exceptions`: each file over the limit that is
/// not an exception, and each exception that is not over it (or not there), one line each.
fn wrong(files: &[(String, usize)], limit: usize, exceptions: &[(&str, &str)]) -> Vec<String> {
    let excepted = |name: &str| exceptions.iter().any(|(file, _)| *file == name);
    let mut wrong: Vec<String> = (files.iter())
        .filter(|(name, lines)| *lines > limit && !excepted(name))
        .map(|(name, lines)| format!("{name}: {lines} lines, over {limit}"))
        .collect();
    for (file, _) in exceptions {
        match files.iter().find(|(name, _)| name == file) {
            Some((_, lines)) if *lines > limit => {}
            Some((_, lines)) => wrong.push(format!(
                "{file}: {lines} lines, within {limit}: no longer an exception"
            )),
            None => wrong.push(format!("{file}: an exception, but no such file")),
        }
    }
    wrong
}

#[test]
fn every_source_file_of_the_workspace_is_at_most_800_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = source_files(&root);
    // The walk found the crates' files, nested modules included.
    for expected in [
        "crates/cli/src/main.rs",
        "crates/conformance/src/snapshot_vectors/mod.rs",
        "crates/pinned/src/lib.rs",
    ] {
        assert!(files.iter().any(|(name, _)| name == expected), "{expected}");
    }
    let wrong = wrong(&files, LIMIT, EXCEPTIONS);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_planted_long_file_fails_the_check() {
    let root =
        std::env::temp_dir().join(format!("rapier-pinned-source-lines-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let plant = |path: &str, lines: usize| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "// a line\n".repeat(lines)).unwrap();
    };
    plant("crates/a/src/lib.rs", 10);
    plant("crates/a/src/deep/nested/long.rs", LIMIT + 1);
    plant("crates/b/src/at_limit.rs", LIMIT);
    plant("crates/b/src/excused.rs", LIMIT + 100);
    plant("crates/b/tests/long_test.rs", LIMIT + 1);
    plant("vendor/engine/src/long.rs", LIMIT + 1);
    let files = source_files(&root);
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(files.len(), 4, "{files:?}");
    let exceptions = [
        ("crates/b/src/excused.rs", "one idea"),
        ("crates/a/src/lib.rs", "was long once"),
        ("crates/a/src/gone.rs", "split since"),
    ];
    assert_eq!(
        wrong(&files, LIMIT, &exceptions),
        [
            "crates/a/src/deep/nested/long.rs: 801 lines, over 800",
            "crates/a/src/lib.rs: 10 lines, within 800: no longer an exception",
            "crates/a/src/gone.rs: an exception, but no such file",
        ]
    );
    assert_eq!(
        wrong(&files, LIMIT, &[]),
        [
            "crates/a/src/deep/nested/long.rs: 801 lines, over 800",
            "crates/b/src/excused.rs: 900 lines, over 800",
        ]
    );
}
