//! The result format has one definition (`src/format.rs`) and one writer, the bash runner
//! scripts/lib/matrix-target: this test runs the runner, both phases, for two targets with a
//! stand-in for the tool (a shell script printing fixed text, so it takes a second, not the
//! matrix's minutes), and requires `matrix-compare` to read what it wrote: identical files pass,
//! and a digest planted on one target is reported by scene and step. A runner that writes a line
//! or a header field the format does not define fails here, not in CI's matrix.

use std::path::{Path, PathBuf};
use std::process::Command;

const X86: &str = "x86_64-unknown-linux-gnu";
const I686: &str = "i686-unknown-linux-gnu";

/// The stand-in tool: every command the runner invokes, answered with fixed text (the digest
/// from `$STUB_DIGEST`), `snapshot save` writing a 200-byte file, the tampered file refused, and
/// the second recorded match diverging.
const STUB: &str = r#"#!/usr/bin/env bash
digest=${STUB_DIGEST:-00000000000000aa}
case "$1 ${2:-}" in
  "check --all") printf 'check cases passed failed\ngolden 1/ (scene files) 1 1 0\ntotal 1 1 0\n' ;;
  "digests ") echo "ball_drop 1 $digest" ;;
  "sweeps ") printf 'slop 0.001 m\n\nlast line without a newline' ;;
  "perturbation --list") echo "vehicle_push" ;;
  "versions --fields") echo "dt $3" ;;
  "snapshot save")
    while [ $# -gt 0 ]; do [ "$1" != --out ] || out=$2; shift; done
    head -c 200 /dev/zero >"$out"
    echo "saved $out" ;;
  "snapshot verify")
    if [ "$3" = tampered.snap ]; then echo "refused: checksum mismatch" >&2; exit 1; fi
    echo "ok: $3" ;;
  "snapshot continue") for i in $(seq 1 30); do echo "$i $digest"; done ;;
  "replay verify") echo "$3: ticks 1..300 verified"; echo "$4: diverges at tick 200" >&2; exit 1 ;;
  *) echo "stub: unknown command: $*" >&2; exit 2 ;;
esac
"#;

/// A scratch directory for one test, removed at the end.
struct Dir(PathBuf);

impl Drop for Dir {
    /// Removes the directory and everything in it.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs scripts/lib/matrix-target `phase` for `target` with the stand-in tool; it must exit 0.
fn runner(dir: &Path, phase: &str, target: &str, rest: &[&str], digest: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(root.join("scripts/lib/matrix-target"))
        .args([phase, target, dir.join("tool").to_str().unwrap()])
        .arg(dir.join("work"))
        .args(rest)
        .env("STUB_DIGEST", digest)
        .output()
        .expect("run scripts/lib/matrix-target");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{phase} {target}: {stderr}");
}

/// Both phases of the runner for both targets, i686's digests being `i686_digest`.
fn matrix(dir: &Path, i686_digest: &str) {
    let good = "00000000000000aa";
    runner(dir, "run", X86, &["native"], good);
    runner(dir, "run", I686, &["native, 32-bit"], i686_digest);
    runner(dir, "cross", X86, &[X86, I686], good);
    runner(dir, "cross", I686, &[X86, I686], i686_digest);
}

/// `matrix-compare` of x86_64's result with i686's: its exit code and stdout.
fn compare(dir: &Path) -> (Option<i32>, String) {
    let result = |t: &str| dir.join("work").join(format!("{t}.result"));
    let out = Command::new(env!("CARGO_BIN_EXE_rapier-pinned-xtask"))
        .arg("matrix-compare")
        .arg("--reference")
        .arg(result(X86))
        .arg(result(I686))
        .output()
        .expect("run rapier-pinned-xtask");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8(out.stdout).unwrap();
    (out.status.code(), format!("{stdout}{stderr}"))
}

#[test]
fn the_runners_result_files_are_read_by_matrix_compare() {
    let dir = Dir(std::env::temp_dir().join(format!("matrix-target-{}", std::process::id())));
    std::fs::create_dir_all(dir.0.join("work")).unwrap();
    let tool = dir.0.join("tool");
    std::fs::write(&tool, STUB).unwrap();
    let chmod = Command::new("chmod").arg("+x").arg(&tool).status().unwrap();
    assert!(chmod.success());

    matrix(&dir.0, "00000000000000aa");
    let (code, out) = compare(&dir.0);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("every section identical"), "{out}");
    let text = std::fs::read_to_string(dir.0.join(format!("work/{I686}.result"))).unwrap();
    for line in [
        "out-noeol",
        "=== tampered exit=1 want-exit=1",
        "err refused: checksum",
    ] {
        assert!(
            text.contains(line),
            "no '{line}' in the runner's file:\n{text}"
        );
    }

    matrix(&dir.0, "00000000000000ab");
    let (code, out) = compare(&dir.0);
    assert_eq!(code, Some(1), "{out}");
    let planted = format!(
        "MISMATCH: {I686}: digests: scene 'ball_drop' step 1: {X86} 00000000000000aa, \
         {I686} 00000000000000ab (stdout line 1)"
    );
    assert!(out.contains(&planted), "{out}");
}
