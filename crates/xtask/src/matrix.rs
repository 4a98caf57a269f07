//! `rapier-pinned-xtask matrix-compare`: the one comparison of the determinism matrix
//! (scripts/determinism-matrix, docs/testing.md "Determinism matrix"). Each target's runner
//! (scripts/lib/matrix-target) writes one result file (`format`); this command reads them, has
//! `judge` compare every section of every target with the reference's (x86_64's), prints each
//! mismatch (the target, the check, the first differing line with both values) and `table`'s
//! summary, target x physics-version. Exit 1 on any mismatch or missing section (or a target
//! given as `--failed`); 2 on a result file that does not parse (a typed
//! [`ParseError`](crate::format::ParseError)) or cannot be read, on a target given twice (among
//! the result files, `--skipped` and `--failed`) and on a malformed `--skipped` or `--failed`
//! value (not `TRIPLE=REASON` with a non-empty reason).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::failure::Failure;
use crate::format::{parse, shown, valid_word, ParseError, ResultFile};
use crate::judge::compare;
use crate::table::table;

/// The options of `matrix-compare`.
#[derive(clap::Args)]
pub struct Args {
    /// The reference's result file, which every other file is compared with
    /// (scripts/determinism-matrix gives x86_64's: the golden files are its results).
    #[arg(long, value_name = "FILE")]
    reference: PathBuf,
    /// Every other target's result file, in the table's order.
    #[arg(value_name = "FILE")]
    results: Vec<PathBuf>,
    /// A target whose toolchain could not be installed: a SKIPPED row (no failure).
    #[arg(long, value_name = "TRIPLE=REASON")]
    skipped: Vec<String>,
    /// A target that failed before writing its result (a build, the runner): a FAIL row, exit 1.
    #[arg(long, value_name = "TRIPLE=REASON")]
    failed: Vec<String>,
}

/// Parses the files, compares them, prints the mismatches and the table. A file that cannot be
/// read or parsed, a target given twice or a malformed `TRIPLE=REASON` is a usage error (exit 2);
/// any mismatch or `--failed` target, a failed check (exit 1).
pub fn run(args: Args) -> Result<(), Failure> {
    let reference = load(&args.reference)?;
    let others = args
        .results
        .iter()
        .map(|p| load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let skipped = named_reasons(&args.skipped, "--skipped")?;
    let failed = named_reasons(&args.failed, "--failed")?;
    let mut seen = BTreeSet::new();
    let targets = std::iter::once(&reference.target)
        .chain(others.iter().map(|r| &r.target))
        .chain(skipped.iter().chain(&failed).map(|(t, _)| t));
    for target in targets {
        if !seen.insert(target) {
            return Err(Failure::Usage(format!(
                "target {target} is given twice (result files, --skipped, --failed)"
            )));
        }
    }
    let mismatches = compare(&reference, &others);
    for m in &mismatches {
        println!("{m}");
    }
    if !mismatches.is_empty() {
        println!();
    }
    print!(
        "{}",
        table(&reference, &others, &mismatches, &skipped, &failed)
    );
    println!();
    let sections = reference.sections.len();
    if mismatches.is_empty() && failed.is_empty() {
        let all: Vec<&str> = std::iter::once(&reference)
            .chain(&others)
            .map(|r| r.target.as_str())
            .collect();
        println!(
            "matrix-compare: {}: every section identical ({sections} sections in the reference{})",
            all.join(" == "),
            if skipped.is_empty() {
                String::new()
            } else {
                format!("; {} skipped", skipped.len())
            }
        );
        return Ok(());
    }
    let count = mismatches.len() + failed.len();
    println!("matrix-compare: FAILED ({count}):");
    for (target, reason) in &failed {
        println!("  {target}: {}", shown(reason));
    }
    for m in &mismatches {
        println!("  {}: {}", m.blame, m.short());
    }
    Err(Failure::Failed(format!(
        "{count} mismatches or failures (listed above)"
    )))
}

/// Reads and parses one result file.
fn load(path: &Path) -> Result<ResultFile, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::Usage(format!(
            "{}: {}",
            path.display(),
            ParseError::NotUtf8 {
                offset: e.utf8_error().valid_up_to()
            }
        ))
    })?;
    parse(&text).map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))
}

/// `TRIPLE=REASON` options, split; a triple that is not one word, or an empty reason, is refused.
fn named_reasons(values: &[String], option: &str) -> Result<Vec<(String, String)>, Failure> {
    values
        .iter()
        .map(|v| match v.split_once('=') {
            Some((t, reason)) if valid_word(t) && !reason.is_empty() => {
                Ok((t.to_string(), reason.to_string()))
            }
            _ => Err(Failure::Usage(format!(
                "{option} takes TRIPLE=REASON (a non-empty reason), not '{}'",
                shown(v)
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::fixtures::*;
    use crate::format::MAGIC;

    /// A directory of result files for one test, removed at the end.
    struct Dir(PathBuf);

    impl Dir {
        /// A fresh directory for `test`, unique to this process.
        fn new(test: &str) -> Dir {
            let dir = std::env::temp_dir().join(format!(
                "rapier-pinned-matrix-{}-{test}",
                std::process::id()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            Dir(dir)
        }

        /// Writes `name` with `bytes`; its path.
        fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
            let path = self.0.join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        }
    }

    impl Drop for Dir {
        /// Removes the directory and its files.
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// The command's options: these files and `TRIPLE=REASON` values.
    fn args(reference: &Path, results: &[&Path], skipped: &[&str], failed: &[&str]) -> Args {
        Args {
            reference: reference.to_path_buf(),
            results: results.iter().map(|p| p.to_path_buf()).collect(),
            skipped: skipped.iter().map(|s| s.to_string()).collect(),
            failed: failed.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The message of a usage error (exit 2); panics on any other result.
    fn usage(result: Result<(), Failure>) -> String {
        match result {
            Err(Failure::Usage(message)) => message,
            Err(Failure::Failed(m)) => panic!("not a usage error: {m}"),
            Ok(()) => panic!("not a usage error: Ok"),
        }
    }

    /// Whether `result` is a failed check (exit 1).
    fn failed(result: Result<(), Failure>) -> bool {
        matches!(result, Err(Failure::Failed(_)))
    }

    #[test]
    fn run_passes_identical_files_and_fails_a_failed_target() {
        let dir = Dir::new("pass");
        let (x86, i686) = (
            dir.file("x.result", file(X86)),
            dir.file("i.result", file(I686)),
        );
        assert!(run(args(&x86, &[&i686], &["wasm32-wasip1=no node"], &[])).is_ok());
        // No mismatch, but a target that failed before writing its result.
        let failure = args(&x86, &[&i686], &[], &[&format!("{AARCH64}=build")]);
        assert!(failed(run(failure)));
    }

    #[test]
    fn run_fails_a_target_with_only_its_header() {
        let dir = Dir::new("header");
        let x86 = dir.file("x.result", file(X86));
        let i686 = dir.file(
            "i.result",
            format!("{MAGIC}\ntarget {I686}\nrun-as native\n"),
        );
        assert!(failed(run(args(&x86, &[&i686], &[], &[]))));
    }

    #[test]
    fn run_refuses_a_target_given_twice() {
        let dir = Dir::new("twice");
        let (x86, i686) = (
            dir.file("x.result", file(X86)),
            dir.file("i.result", file(I686)),
        );
        let twice = format!("target {I686} is given twice (result files, --skipped, --failed)");
        assert_eq!(usage(run(args(&x86, &[&i686, &i686], &[], &[]))), twice);
        let skipped = format!("{I686}=no toolchain");
        assert_eq!(usage(run(args(&x86, &[&i686], &[&skipped], &[]))), twice);
        let message = usage(run(args(&x86, &[], &[&format!("{X86}=x")], &[])));
        assert!(
            message.starts_with(&format!("target {X86} is given twice")),
            "{message}"
        );
    }

    #[test]
    fn run_refuses_a_malformed_triple_reason() {
        let dir = Dir::new("reasons");
        let x86 = dir.file("x.result", file(X86));
        for bad in [
            "wasm32-wasip1",
            "wasm32-wasip1=",
            "=no node",
            "two words=x",
            "a\rb=x",
        ] {
            let message = usage(run(args(&x86, &[], &[bad], &[])));
            assert_eq!(
                message,
                format!(
                    "--skipped takes TRIPLE=REASON (a non-empty reason), not '{}'",
                    shown(bad)
                )
            );
            let message = usage(run(args(&x86, &[], &[], &[bad])));
            assert!(
                message.starts_with("--failed takes TRIPLE=REASON"),
                "{message}"
            );
        }
    }

    #[test]
    fn run_refuses_a_file_that_does_not_load() {
        let dir = Dir::new("load");
        let x86 = dir.file("x.result", file(X86));
        let mut bytes = file(I686).into_bytes();
        let at = bytes.len() - 3;
        bytes[at] = 0xff;
        let i686 = dir.file("i.result", bytes);
        assert_eq!(
            usage(run(args(&x86, &[&i686], &[], &[]))),
            format!(
                "{}: not a result file: not UTF-8 (at byte {at})",
                i686.display()
            )
        );
        let crlf = dir.file("crlf.result", file(I686).replace('\n', "\r\n"));
        let message = usage(run(args(&x86, &[&crlf], &[], &[])));
        assert!(
            message.ends_with(&format!("line 1 is '{MAGIC}\\r', not '{MAGIC}'")),
            "{message}"
        );
        let absent = dir.0.join("absent.result");
        let message = usage(run(args(&absent, &[], &[], &[])));
        assert!(
            message.starts_with(&format!("{}: ", absent.display())),
            "{message}"
        );
    }
}
