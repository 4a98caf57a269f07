//! The determinism matrix's summary table, target x physics-version, from the judge's
//! mismatches: what a reader of a CI log looks at first. Its columns map the sections (`format`)
//! to what they prove: `check`'s rows give the golden+vectors column per physics-version,
//! `digests` the digests column, the snapshot sections of version `v<N>` (`save:`, `verify:`,
//! `continue:`) its snapshots column, every other section (`tampered`, `sweeps`, ...) the other
//! column. A failure counts in the row of the target it is blamed on (`judge`).

use std::collections::BTreeSet;

use crate::format::{
    golden_version, save_id, shown, snapshot_parts, snapshot_version, ResultFile, CHECK, DIGESTS,
};
use crate::mismatch::Mismatch;

/// The summary table, target x physics-version, as text. A cell is `-` where the reference has
/// nothing to compare (no `golden V/` row of that version, no snapshot of it, no `digests`, no
/// other section), unless that target has a failure there.
pub fn table(
    reference: &ResultFile,
    others: &[ResultFile],
    mismatches: &[Mismatch],
    skipped: &[(String, String)],
    failed: &[(String, String)],
) -> String {
    let golden: BTreeSet<u32> = reference
        .section(CHECK)
        .into_iter()
        .flat_map(|check| check.outs().filter_map(golden_version))
        .collect();
    let snapshot_versions: BTreeSet<u32> = reference
        .sections
        .iter()
        .filter_map(|s| snapshot_version(&s.name))
        .collect();
    let versions: Vec<u32> = golden.union(&snapshot_versions).copied().collect();
    let snapshots: Vec<&str> = reference
        .sections
        .iter()
        .filter_map(|s| save_id(&s.name))
        .collect();
    let is_other = |name: &str| {
        name != CHECK
            && name != DIGESTS
            && (snapshot_parts(name).is_none() || snapshot_version(name).is_none())
    };
    let other: Vec<&str> = reference
        .sections
        .iter()
        .map(|s| s.name.as_str())
        .filter(|n| n != &CHECK && n != &DIGESTS && snapshot_parts(n).is_none())
        .collect();
    let mut t = String::new();
    let mut line = |cells: [&str; 7]| {
        t += &format!(
            "{:<26} {:<22} {:<3} {:<15} {:<10} {:<10} {}\n",
            cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6]
        );
    };
    let head = format!(
        "determinism matrix, reference {}:\n  golden+vectors: the `check --all` rows of that \
         physics-version;\n  digests: every step of every scene at upstream defaults;\n  \
         snapshots: {},\n    saved byte-identical on every target, each target's file verified \
         and continued on every target;\n  other: {}\n",
        reference.target,
        snapshots.join(", "),
        other.join(", ")
    );
    line([
        "target",
        "run as",
        "pv",
        "golden+vectors",
        "digests",
        "snapshots",
        "other",
    ]);
    let counts = |target: &str, pred: &dyn Fn(&str) -> bool| {
        mismatches
            .iter()
            .filter(|m| m.blame == target && pred(&m.section))
            .count()
    };
    // One row per version (one `-` row without any).
    let rows: Vec<Option<u32>> = if versions.is_empty() {
        vec![None]
    } else {
        versions.iter().copied().map(Some).collect()
    };
    for r in std::iter::once(reference).chain(others) {
        let target = r.target.as_str();
        let run_as = shown(&r.run_as);
        let dg = if counts(target, &|s| s == DIGESTS) != 0 {
            "FAIL"
        } else if reference.section(DIGESTS).is_none() {
            "-"
        } else if target == reference.target {
            "reference"
        } else {
            "identical"
        };
        let oth = if counts(target, &is_other) != 0 {
            "FAIL"
        } else if other.is_empty() {
            "-"
        } else {
            "ok"
        };
        let check_failed = counts(target, &|s| s == CHECK) != 0;
        let mut gv: Vec<&str> = rows
            .iter()
            .map(|&v| match v {
                Some(v) if check_failed => check_cell(reference, r, v),
                Some(v) if golden.contains(&v) => "pass",
                _ if check_failed => "FAIL",
                _ => "-",
            })
            .collect();
        // A check that failed elsewhere than in any version's rows (its total, another row)
        // fails every version: never a pass beside a failed check.
        if check_failed && !gv.contains(&"FAIL") {
            gv.fill("FAIL");
        }
        for (&v, gv) in rows.iter().zip(gv) {
            let bad = counts(target, &|s| v.is_some() && snapshot_version(s) == v);
            let sn = if bad != 0 {
                format!("FAIL ({bad})")
            } else if v.is_some_and(|v| snapshot_versions.contains(&v)) {
                "ok".to_string()
            } else {
                "-".to_string()
            };
            let pv = v.map_or("-".to_string(), |v| v.to_string());
            line([target, &run_as, &pv, gv, dg, &sn, oth]);
        }
    }
    for (target, _) in failed {
        line([
            target,
            "FAILED (see below)",
            "-",
            "FAIL",
            "FAIL",
            "FAIL",
            "FAIL",
        ]);
    }
    for (target, _) in skipped {
        line([target, "SKIPPED (see WARNING)", "-", "-", "-", "-", "-"]);
    }
    head + &t
}

/// The golden+vectors cell of a target whose `check` section failed, for version `v`: its `golden
/// V/`, `conformance snapshots/V` and sweep rows (for V = 1 also the pristine-upstream import,
/// which imports as version 1) all with 0 failed and equal to the reference's rows.
fn check_cell(reference: &ResultFile, r: &ResultFile, v: u32) -> &'static str {
    let prefixes = [
        format!("golden {v}/"),
        format!("conformance snapshots/{v} "),
        "conformance sweeps/".to_string(),
    ];
    let rows = |f: &ResultFile| -> Vec<String> {
        let Some(check) = f.section(CHECK) else {
            return Vec::new();
        };
        check
            .outs()
            .filter(|line| {
                prefixes.iter().any(|p| line.starts_with(p.as_str()))
                    || (v == 1 && line.starts_with("conformance snapshots/upstream-"))
            })
            .map(str::to_string)
            .collect()
    };
    let mine = rows(r);
    let clean = mine
        .iter()
        .all(|row| row.split_whitespace().last() == Some("0"));
    if !mine.is_empty() && mine == rows(reference) && clean {
        "pass"
    } else {
        "FAIL"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::fixtures::*;
    use crate::format::{parse, MAGIC};
    use crate::judge::compare;

    /// The reference's (x86_64's) good file and `other` (which must parse).
    fn both(other: &str) -> (ResultFile, Vec<ResultFile>) {
        (
            parse(&file(X86)).unwrap(),
            vec![parse(other).expect("the other file parses")],
        )
    }

    #[test]
    fn identical_targets_pass_with_one_row_per_version() {
        let (reference, others) = both(&file(I686));
        let t = table(&reference, &others, &[], &[], &[]);
        assert!(
            t.contains(&format!(
                "{I686:<26} native                 2   pass            identical  ok         ok"
            )),
            "{t}"
        );
        assert_eq!(rows(&t, I686).len(), 2, "one row per version: {t}");
    }

    #[test]
    fn a_differing_digest_fails_every_row_of_its_target() {
        let bad = file(I686).replace(
            "ball_drop 2 00000000000000ab",
            "ball_drop 2 00000000000000ac",
        );
        let (reference, others) = both(&bad);
        let m = compare(&reference, &others);
        let t = table(&reference, &others, &m, &[], &[]);
        assert!(rows(&t, I686).iter().all(|l| l.contains(" FAIL ")), "{t}");
    }

    #[test]
    fn a_bad_snapshot_file_fails_its_makers_row_only() {
        let i686 = file(I686).replace(SHA, &SHA.replace("01", "02"));
        // The reference's continuation of i686's (bad) file also differs.
        let x86 = file(X86).replacen(
            &format!(
                "=== continue:tower@60:v2:of:{I686} exit=0 want-lines=2\nout 61 ede7cafdfa181f29"
            ),
            &format!(
                "=== continue:tower@60:v2:of:{I686} exit=0 want-lines=2\nout 61 0000000000000000"
            ),
            1,
        );
        let (reference, others) = (parse(&x86).unwrap(), [parse(&i686).unwrap()]);
        let m = compare(&reference, &others);
        let t = table(&reference, &others, &m, &[], &[]);
        assert!(rows(&t, I686).iter().any(|l| l.contains("FAIL (2)")), "{t}");
        assert!(rows(&t, X86).iter().all(|l| !l.contains("FAIL")), "{t}");
    }

    #[test]
    fn a_failed_reading_fails_the_snapshots_cell_of_its_version() {
        let own = format!("=== verify:tower@60:v2:of:{X86} exit=0\nout ok: tower-60-v2.snap\n");
        let reference = parse(&file(X86).replace(&own, "")).unwrap();
        let bad = file(I686).replace(
            &format!("=== verify:tower@60:v2:of:{I686} exit=0"),
            &format!("=== verify:tower@60:v2:of:{I686} exit=7"),
        );
        let others = [parse(&bad).unwrap()];
        let m = compare(&reference, &others);
        let t = table(&reference, &others, &m, &[], &[]);
        assert!(
            rows(&t, I686)[1].contains(" 2   pass            identical  FAIL (1)"),
            "{t}"
        );
    }

    #[test]
    fn no_pass_for_versions_the_reference_checked_nothing_of() {
        let (reference, others) = (parse(&empty(X86)).unwrap(), [parse(&empty(I686)).unwrap()]);
        let t = table(&reference, &others, &compare(&reference, &others), &[], &[]);
        assert_eq!(rows(&t, I686).len(), 1, "{t}");
        assert!(
            rows(&t, I686)[0].contains(" 2   -               identical  ok         ok"),
            "{t}"
        );
        assert!(rows(&t, X86)[0].contains(" 2   FAIL "), "{t}");
    }

    #[test]
    fn a_table_without_versions_has_no_passes() {
        let bare = format!("{MAGIC}\ntarget {X86}\nrun-as native\n=== sweeps exit=0\n");
        let reference = parse(&bare).unwrap();
        let t = table(&reference, &[], &[], &[], &[]);
        assert!(
            rows(&t, X86)[0]
                .contains("native                 -   -               -          -          ok"),
            "{t}"
        );
    }

    #[test]
    fn a_failed_check_shows_the_table_and_the_failing_version() {
        let bad = file(I686).replace(
            "golden 2/ (scene files) 12 12 0",
            "golden 2/ (scene files) 12 11 1",
        );
        let bad = bad.replace("=== check exit=0", "=== check exit=1");
        let (reference, others) = both(&bad);
        let m = compare(&reference, &others);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].notes
                .iter()
                .any(|n| n.contains("golden 2/ (scene files) 12 11 1")),
            "{m:?}"
        );
        let t = table(&reference, &others, &m, &[], &[]);
        let rows = rows(&t, I686);
        assert!(rows[0].contains(" 1   pass "), "{t}");
        assert!(rows[1].contains(" 2   FAIL "), "{t}");
    }

    #[test]
    fn a_check_that_differs_in_no_versions_rows_fails_every_version() {
        let bad = file(I686).replace("out total 126 126 0", "out total 126 125 1");
        let (reference, others) = both(&bad);
        let m = compare(&reference, &others);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].section, CHECK);
        let t = table(&reference, &others, &m, &[], &[]);
        let rows = rows(&t, I686);
        assert!(rows[0].contains(" 1   FAIL "), "{t}");
        assert!(rows[1].contains(" 2   FAIL "), "{t}");
    }

    #[test]
    fn skipped_and_failed_targets_get_their_rows() {
        let reference = parse(&file(X86)).unwrap();
        let skipped = [("wasm32-wasip1".to_string(), "no node".to_string())];
        let failed = [(AARCH64.to_string(), "build".to_string())];
        let t = table(&reference, &[], &[], &skipped, &failed);
        assert!(
            t.contains("wasm32-wasip1              SKIPPED (see WARNING)  -   -"),
            "{t}"
        );
        assert!(
            t.contains("aarch64-unknown-linux-gnu  FAILED (see below)     -   FAIL"),
            "{t}"
        );
    }
}
