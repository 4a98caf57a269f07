//! The determinism matrix's judge: which sections of which targets fail, and whom each failure
//! counts against. The format it reads is `format`'s; the rules are these.
//!
//! A section fails when its runner differs from the reference's (its `$` line, `want-exit` or
//! `want-lines`), when its exit status is not the reference's `want-exit` (default 0), when the
//! reference gives `want-lines` and its number of `out` lines differs, or when its `out`, `err`,
//! `-noeol` and `file` lines differ from the reference's. Every target must have exactly the
//! reference's sections, where the cross sections `<kind>:<snapshot>:of:<source>` (and for every
//! `save:<snapshot>`, its `verify:` and `continue:`) are expected for every source among the
//! compared targets and are compared with the reference reading its own file,
//! `<kind>:<snapshot>:of:<reference>` (without that reading, reported missing, each target's is
//! still held to its own `want-exit`). A failure of a cross section is counted against its source
//! when the source's own `save:<snapshot>` failed and the reader's output differs or it refused
//! the file (exit 1): the maker of a bad file, not the readers that then refuse it; a reader that
//! fails otherwise (a crash, another runner, a missing section) counts against the reader. The
//! reference's gates, so that a run whose checks printed nothing is no pass: it must have `check`
//! with a `golden <V>/` row and a `total` row, `digests` with at least one `out` line, `tampered`
//! with an `err` line (the refusal's reason), at least one `save:` section and exactly one `file`
//! line in each, and `want-lines` in each of its continuations of its own files.
//!
//! What a failure says (the first differing line with both values, digests by scene and step) is
//! `mismatch`'s.

use crate::format::{
    cross_parts, golden_version, save_id, snapshot_parts, Item, ResultFile, Section, CHECK,
    CONTINUE, DIGESTS, SAVE, TAMPERED, VERIFY,
};
use crate::mismatch::{first_difference, runner_difference, Mismatch};

/// The sections every reference must have (see the module doc).
const REQUIRED: [&str; 3] = [CHECK, DIGESTS, TAMPERED];
/// The exit status of a refusal (`rapier-pinned`'s exit statuses): what a reader of a bad file
/// exits.
const REFUSED: i32 = 1;
/// The detail of a section that is not there.
pub const MISSING: &str = "missing section";

/// Compares every target's sections (the reference's included) with the reference's; returns
/// every failure, in order: the reference's gates (a required section missing, or without the
/// lines it must have: see the module doc), the plain sections target by target, then the cross
/// sections, then the sections no target should have.
pub fn compare(reference: &ResultFile, others: &[ResultFile]) -> Vec<Mismatch> {
    let all: Vec<&ResultFile> = std::iter::once(reference).chain(others).collect();
    let plain: Vec<&Section> = reference
        .sections
        .iter()
        .filter(|s| cross_parts(&s.name).is_none())
        .collect();
    let bases = cross_bases(reference, &plain);
    let mut out = gates(reference, &plain, &bases);
    for r in &all {
        for model in &plain {
            match r.section(&model.name) {
                None => out.push(Mismatch::own(&r.target, &model.name, MISSING)),
                Some(actual) => out.extend(judge(reference, model, r, actual).map(|(_, m)| m)),
            }
        }
    }
    let cross = judge_cross(reference, &all, &bases, &out);
    out.extend(cross);
    out.extend(unexpected(reference, &all, &plain, &bases));
    out
}

/// The cross kinds, `<kind>:<snapshot>`: every one the reference has, and `verify:` and
/// `continue:` of every save, each once.
fn cross_bases(reference: &ResultFile, plain: &[&Section]) -> Vec<String> {
    let mut bases: Vec<String> = Vec::new();
    let saves = plain.iter().filter_map(|s| save_id(&s.name));
    let implied = saves.flat_map(|id| [format!("{VERIFY}:{id}"), format!("{CONTINUE}:{id}")]);
    let given = reference
        .sections
        .iter()
        .filter_map(|s| cross_parts(&s.name).map(|(base, _)| base.to_string()));
    for base in implied.chain(given) {
        if !bases.contains(&base) {
            bases.push(base);
        }
    }
    bases
}

/// The reference's gates: its required sections there, and each with the lines it must have
/// (see the module doc), so that a run whose checks printed nothing does not pass.
fn gates(reference: &ResultFile, plain: &[&Section], bases: &[String]) -> Vec<Mismatch> {
    let me = reference.target.as_str();
    let mut out = Vec::new();
    let mut gate = |section: &str, detail: String| out.push(Mismatch::own(me, section, detail));
    for name in REQUIRED {
        if reference.section(name).is_none() {
            gate(
                name,
                "missing from the reference, which must have it".into(),
            );
        }
    }
    if !plain.iter().any(|s| save_id(&s.name).is_some()) {
        gate(
            &format!("{SAVE}:*"),
            format!("the reference saved no snapshot (no {SAVE}: section)"),
        );
    }
    let empty = |what: &str| format!("the reference's section has {what}, which it must have");
    if let Some(check) = reference.section(CHECK) {
        if !check.outs().any(|row| golden_version(row).is_some()) {
            gate(CHECK, empty("no `golden <V>/` row"));
        }
        if !check
            .outs()
            .any(|row| row.split_whitespace().next() == Some("total"))
        {
            gate(CHECK, empty("no `total` row"));
        }
    }
    if reference
        .section(DIGESTS)
        .is_some_and(|s| s.outs().next().is_none())
    {
        gate(DIGESTS, empty("no `out` line"));
    }
    if let Some(tampered) = reference.section(TAMPERED) {
        if !tampered.items.iter().any(|i| matches!(i, Item::Err(_))) {
            gate(TAMPERED, empty("no `err` line (the refusal's reason)"));
        }
    }
    for save in plain.iter().filter(|s| save_id(&s.name).is_some()) {
        let files = save
            .items
            .iter()
            .filter(|i| matches!(i, Item::File { .. }))
            .count();
        if files != 1 {
            gate(
                &save.name,
                format!("the reference's save has {files} `file` lines, must have 1"),
            );
        }
    }
    let continuations = bases
        .iter()
        .filter(|b| snapshot_parts(b).is_some_and(|(kind, _)| kind == CONTINUE));
    for base in continuations {
        let name = format!("{base}:of:{me}");
        if reference
            .section(&name)
            .is_some_and(|s| s.want_lines.is_none())
        {
            gate(&name, empty("no want-lines"));
        }
    }
    out
}

/// Judges every target's reading of every compared target's snapshot files (the cross sections)
/// against the reference's reading of its own. `so_far` (the gates' and the plain sections'
/// mismatches) tells whose save failed.
fn judge_cross(
    reference: &ResultFile,
    all: &[&ResultFile],
    bases: &[String],
    so_far: &[Mismatch],
) -> Vec<Mismatch> {
    let failed_save = |target: &str, base: &str| {
        let save = snapshot_parts(base).map(|(_, id)| format!("{SAVE}:{id}"));
        so_far
            .iter()
            .any(|m| m.reader == target && Some(&m.section) == save.as_ref())
    };
    let mut out = Vec::new();
    for base in bases {
        let model = reference.section(&format!("{base}:of:{}", reference.target));
        for r in all {
            for src in all.iter().map(|s| s.target.as_str()) {
                let name = format!("{base}:of:{src}");
                let Some(actual) = r.section(&name) else {
                    out.push(Mismatch::own(&r.target, &name, MISSING));
                    continue;
                };
                // Without the reference's own reading (reported missing), each reading is
                // still held to its own want-exit.
                let model = model.unwrap_or(actual);
                let Some((fault, mut m)) = judge(reference, model, r, actual) else {
                    continue;
                };
                if src != r.target && fault.may_be_the_files() && failed_save(src, base) {
                    m.blame = src.to_string();
                }
                out.push(m);
            }
        }
    }
    out
}

/// The sections no target should have: neither the reference's nor implied by its saves, or
/// reading the files of a target whose result is not among those compared.
fn unexpected(
    reference: &ResultFile,
    all: &[&ResultFile],
    plain: &[&Section],
    bases: &[String],
) -> Vec<Mismatch> {
    let sources: Vec<&str> = all.iter().map(|r| r.target.as_str()).collect();
    let mut out = Vec::new();
    for r in all {
        for s in &r.sections {
            let detail = match cross_parts(&s.name) {
                None if plain.iter().any(|p| p.name == s.name) => continue,
                Some((base, src)) if bases.iter().any(|b| b == base) => {
                    if sources.contains(&src) {
                        continue;
                    }
                    format!("reads the files of {src}, whose result is not among those compared")
                }
                _ => format!("an extra section, not in {}'s file", reference.target),
            };
            out.push(Mismatch::own(&r.target, &s.name, detail));
        }
    }
    out
}

/// What a judged section got wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// Its runner is not the model's: its command line, want-exit or want-lines.
    Runner,
    /// It exited with this status, not the one wanted.
    Exit(i32),
    /// Its output: its number of stdout lines, or its lines.
    Output,
}

impl Fault {
    /// Whether a reading of another target's snapshot file may fail because of the file: its
    /// output differs, or it refused the file. A crash (any other exit) or another runner is the
    /// reader's.
    fn may_be_the_files(self) -> bool {
        matches!(self, Fault::Output | Fault::Exit(REFUSED))
    }
}

/// Judges `actual` (of `r`) against the reference's `model`: (unless it is the model itself) its
/// runner, then its exit status, its number of lines, and (unless it is the model itself) its
/// lines. The first fault found, and its mismatch, counted against `r`.
fn judge(
    reference: &ResultFile,
    model: &Section,
    r: &ResultFile,
    actual: &Section,
) -> Option<(Fault, Mismatch)> {
    let itself = std::ptr::eq(model, actual);
    let mut notes = Vec::new();
    if actual.exit != model.want_exit && !actual.notes.is_empty() {
        notes.push("stderr (tail):".to_string());
        notes.extend(actual.notes.iter().map(|n| format!("  {n}")));
    }
    let runner = (!itself)
        .then(|| runner_difference(&reference.target, model, &r.target, actual))
        .flatten();
    let (fault, detail) = if let Some(detail) = runner {
        (Fault::Runner, detail)
    } else if actual.exit != model.want_exit {
        let reference_exit = if itself {
            String::new()
        } else {
            format!("; {}: {}", reference.target, model.exit)
        };
        let detail = format!(
            "exit {} (must be {}{reference_exit})",
            actual.exit, model.want_exit
        );
        (Fault::Exit(actual.exit), detail)
    } else if let Some(n) = model.want_lines.filter(|&n| n != actual.out_lines()) {
        let detail = format!("{} lines of stdout, must be {n}", actual.out_lines());
        (Fault::Output, detail)
    } else if !itself && model.items != actual.items {
        let detail = first_difference(&reference.target, model, &r.target, actual);
        (Fault::Output, detail)
    } else {
        return None;
    };
    if actual.name == CHECK {
        notes.push(format!("{}'s check --all table:", r.target));
        notes.extend(actual.items.iter().map(|i| format!("  {i}")));
    }
    let mut m = Mismatch::own(&r.target, &actual.name, detail);
    m.notes = notes;
    Some((fault, m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::fixtures::*;
    use crate::format::{parse, MAGIC};

    /// The reference's (x86_64's) good file and `other` (which must parse).
    fn both(other: &str) -> (ResultFile, Vec<ResultFile>) {
        (
            parse(&file(X86)).unwrap(),
            vec![parse(other).expect("the other file parses")],
        )
    }

    /// `compare` of x86_64's good file with `other`.
    fn against(other: &str) -> Vec<Mismatch> {
        let (reference, others) = both(other);
        compare(&reference, &others)
    }

    #[test]
    fn identical_files_compare_clean() {
        let (reference, others) = both(&file(I686));
        assert_eq!(compare(&reference, &others), vec![]);
    }

    #[test]
    fn a_differing_digest_line_names_target_scene_step_and_both_values() {
        let bad = file(I686).replace(
            "ball_drop 2 00000000000000ab",
            "ball_drop 2 00000000000000ac",
        );
        let (reference, others) = both(&bad);
        let m = compare(&reference, &others);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            (m[0].blame.as_str(), m[0].section.as_str()),
            (I686, DIGESTS)
        );
        assert_eq!(
            m[0].to_string(),
            format!(
                "MISMATCH: {I686}: digests: scene 'ball_drop' step 2: {X86} 00000000000000ab, \
                 {I686} 00000000000000ac (stdout line 2)"
            )
        );
    }

    #[test]
    fn any_other_differing_line_is_shown_whole() {
        let m = against(&file(I686).replace("out slop 0.001 m", "out slop 0.002 m"));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            m[0].to_string(),
            format!(
                "MISMATCH: {I686}: sweeps: stdout line 1: {X86} 'out slop 0.001 m', \
                 {I686} 'out slop 0.002 m'"
            )
        );
        // A line more at the end.
        let m =
            against(&file(I686).replace("out slop 0.001 m\nout\n", "out slop 0.001 m\nout\nout\n"));
        assert_eq!(
            m[0].detail,
            format!("stdout line 3: {X86} <the section ends>, {I686} 'out '")
        );
        // A line of another kind: its place among the section's items.
        let m = against(&file(I686).replace(
            "out slop 0.001 m\nout\n",
            "out slop 0.001 m\nout\nout-noeol\n",
        ));
        assert_eq!(
            m[0].detail,
            format!("item 3 of the section: {X86} <the section ends>, {I686} 'out-noeol'")
        );
    }

    #[test]
    fn a_missing_section_fails() {
        let m = against(&file(I686).replace("=== sweeps exit=0\nout slop 0.001 m\nout\n", ""));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            m[0].to_string(),
            format!("MISMATCH: {I686}: sweeps: missing section")
        );
        // A missing cross section too: the reader did not continue the other's file.
        let m = against(&file(I686).replace(
            &format!("=== continue:tower@60:v2:of:{X86} exit=0 want-lines=2\nout 61 ede7cafdfa181f29\nout 62 ede7cafdfa181f30\n"),
            "",
        ));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].section, format!("continue:tower@60:v2:of:{X86}"));
        assert_eq!(m[0].blame, I686);
    }

    #[test]
    fn a_target_with_only_its_header_lines_misses_every_section() {
        let header = format!("{MAGIC}\ntarget {I686}\nrun-as native\n");
        let m = against(&header);
        let want = parse(&file(I686)).unwrap().sections.len();
        assert_eq!(m.len(), want, "{m:?}");
        assert!(
            m.iter().all(|m| m.blame == I686 && m.detail == MISSING),
            "{m:?}"
        );
    }

    #[test]
    fn a_different_exit_status_fails_with_the_stderr_tail() {
        let m = against(
            &file(I686).replace("=== sweeps exit=0\n", "=== sweeps exit=2\n# error: boom\n"),
        );
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            m[0].to_string(),
            format!("MISMATCH: {I686}: sweeps: exit 2 (must be 0; {X86}: 0)\n    stderr (tail):\n      error: boom")
        );
        // A refusal that is not refused: exit 0 where 1 is wanted.
        let m = against(&file(I686).replace(
            "=== tampered exit=1 want-exit=1",
            "=== tampered exit=0 want-exit=1",
        ));
        assert_eq!(m[0].detail, format!("exit 0 (must be 1; {X86}: 1)"));
        // The reference itself is held to its wants.
        let reference = parse(&file(X86).replace("=== check exit=0", "=== check exit=1")).unwrap();
        let m = compare(&reference, &[parse(&file(I686)).unwrap()]);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            (m[0].blame.as_str(), m[0].detail.as_str()),
            (X86, "exit 1 (must be 0)")
        );
    }

    #[test]
    fn a_differing_refusal_reason_and_a_short_continuation_fail() {
        let m = against(&file(I686).replace("checksum mismatch", "bad header"));
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].detail.starts_with("stderr line 1: "),
            "{}",
            m[0].detail
        );
        let m = against(&file(I686).replacen("out 62 ede7cafdfa181f30\n", "", 1));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].detail, "1 lines of stdout, must be 2");
        let m =
            against(&file(I686).replacen("out 62 ede7cafdfa181f30", "out 62 ede7cafdfa181f31", 1));
        assert_eq!(
            m[0].detail,
            format!(
                "tick 62: digest {X86} ede7cafdfa181f30, {I686} ede7cafdfa181f31 (stdout line 2)"
            )
        );
    }

    #[test]
    fn a_stale_runner_fails_even_when_the_output_matches() {
        let m = against(&file(I686).replace("$ check --all\n", "$ check\n"));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            (m[0].section.as_str(), m[0].detail.as_str()),
            (
                CHECK,
                &*format!("the runner differs: command: {X86} '$ check --all', {I686} '$ check'")
            )
        );
        let m = against(&file(I686).replace("$ check --all\n", ""));
        assert_eq!(
            m[0].detail,
            format!("the runner differs: command: {X86} '$ check --all', {I686} none")
        );
        // A runner that no longer wants the refusal, and one that wants more lines.
        let m =
            against(&file(I686).replace("=== tampered exit=1 want-exit=1", "=== tampered exit=1"));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            m[0].detail,
            format!("the runner differs: want-exit: {X86} 1, {I686} 0")
        );
        let section = format!("continue:tower@60:v2:of:{I686}");
        let m = against(&file(I686).replace(
            &format!("=== {section} exit=0 want-lines=2"),
            &format!("=== {section} exit=0 want-lines=3"),
        ));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            (m[0].section.as_str(), m[0].detail.as_str()),
            (
                section.as_str(),
                &*format!("the runner differs: want-lines: {X86} 2, {I686} 3")
            )
        );
    }

    #[test]
    fn a_bad_snapshot_file_counts_against_its_maker_not_its_readers() {
        let other = SHA.replace("01", "02");
        let i686 = file(I686).replace(
            &format!("file 308246 {SHA}"),
            &format!("file 308246 {other}"),
        );
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
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(m[0].section, "save:tower@60:v2");
        assert!(
            m[0].detail.starts_with("the file differs: "),
            "{}",
            m[0].detail
        );
        assert_eq!((m[1].reader.as_str(), m[1].blame.as_str()), (X86, I686));
        assert!(
            m[1].to_string().contains("(counted against i686"),
            "{}",
            m[1]
        );
    }

    #[test]
    fn a_reader_that_crashes_on_a_bad_file_counts_against_the_reader() {
        let three = [X86, I686, AARCH64];
        let verify = format!("=== verify:tower@60:v2:of:{I686} exit=0");
        // i686 saved a bad file; x86_64 refuses it (exit 1), aarch64 panics on it (exit 101).
        let i686 = file_of(I686, &three).replace(SHA, &SHA.replace("01", "02"));
        let x86 = file_of(X86, &three).replace(&verify, &verify.replace("exit=0", "exit=1"));
        let aarch64 =
            file_of(AARCH64, &three).replace(&verify, &verify.replace("exit=0", "exit=101"));
        let m = compare(
            &parse(&x86).unwrap(),
            &[parse(&i686).unwrap(), parse(&aarch64).unwrap()],
        );
        let who: Vec<(&str, &str, &str)> = m
            .iter()
            .map(|m| (m.section.as_str(), m.reader.as_str(), m.blame.as_str()))
            .collect();
        let verify = format!("verify:tower@60:v2:of:{I686}");
        assert_eq!(
            who,
            [
                ("save:tower@60:v2", I686, I686),
                (verify.as_str(), X86, I686),
                (verify.as_str(), AARCH64, AARCH64),
            ],
            "{m:?}"
        );
        assert_eq!(m[2].detail, format!("exit 101 (must be 0; {X86}: 0)"));
        // A reader without the section is the reader's failure too.
        let aarch64 = file_of(AARCH64, &three).replace(
            &format!("=== {verify} exit=0\nout ok: tower-60-v2.snap\n"),
            "",
        );
        let m = compare(
            &parse(&file_of(X86, &three)).unwrap(),
            &[parse(&i686).unwrap(), parse(&aarch64).unwrap()],
        );
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(
            (
                m[1].section.as_str(),
                m[1].detail.as_str(),
                m[1].blame.as_str()
            ),
            (verify.as_str(), MISSING, AARCH64)
        );
    }

    #[test]
    fn a_reading_without_the_references_own_is_held_to_its_own_exit() {
        let own = format!("=== verify:tower@60:v2:of:{X86} exit=0\nout ok: tower-60-v2.snap\n");
        let reference = parse(&file(X86).replace(&own, "")).unwrap();
        let bad = file(I686).replace(
            &format!("=== verify:tower@60:v2:of:{I686} exit=0"),
            &format!("=== verify:tower@60:v2:of:{I686} exit=7"),
        );
        let others = [parse(&bad).unwrap()];
        let m = compare(&reference, &others);
        let got: Vec<(&str, &str, &str)> = m
            .iter()
            .map(|m| (m.reader.as_str(), m.section.as_str(), m.detail.as_str()))
            .collect();
        let (mine, theirs) = (
            format!("verify:tower@60:v2:of:{X86}"),
            format!("verify:tower@60:v2:of:{I686}"),
        );
        assert_eq!(
            got,
            [
                (X86, mine.as_str(), MISSING),
                (I686, theirs.as_str(), "exit 7 (must be 0)"),
            ],
            "{m:?}"
        );
    }

    #[test]
    fn extra_sections_and_a_reference_without_its_gates_fail() {
        let m = against(&(file(I686) + "=== surprise exit=0\n"));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            m[0].detail,
            format!("an extra section, not in {X86}'s file")
        );
        // A reference that lost its check: the gate names it, and the target's check is extra.
        let start = file(X86).find("=== digests").unwrap();
        let headless = format!(
            "{MAGIC}\ntarget {X86}\nrun-as native\n{}",
            &file(X86)[start..]
        );
        let m = compare(&parse(&headless).unwrap(), &[parse(&file(I686)).unwrap()]);
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!((m[0].section.as_str(), m[0].blame.as_str()), (CHECK, X86));
        assert_eq!((m[1].section.as_str(), m[1].blame.as_str()), (CHECK, I686));
        assert_eq!(
            m[1].detail,
            format!("an extra section, not in {X86}'s file")
        );
        // A reference with no cross sections at all: every save still expects them.
        let cut = file(X86).find("=== verify").unwrap();
        let m = compare(
            &parse(&file(X86)[..cut]).unwrap(),
            &[parse(&file(I686)).unwrap()],
        );
        assert!(
            m.iter()
                .any(|m| m.section == format!("continue:tower@60:v2:of:{X86}")),
            "{m:?}"
        );
        assert!(m.iter().any(|m| m.section == TAMPERED), "{m:?}");
    }

    #[test]
    fn a_reading_of_a_target_not_compared_is_named_so() {
        // x86_64's file reads i686's files, but i686's result is not given.
        let m = compare(&parse(&file(X86)).unwrap(), &[]);
        let want = format!("reads the files of {I686}, whose result is not among those compared");
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(
            m.iter().all(|m| m.blame == X86 && m.detail == want),
            "{m:?}"
        );
        assert_eq!(
            m.iter().map(|m| m.section.as_str()).collect::<Vec<_>>(),
            [
                format!("verify:tower@60:v2:of:{I686}"),
                format!("continue:tower@60:v2:of:{I686}")
            ]
        );
    }

    #[test]
    fn sections_that_hold_nothing_fail_the_reference_gates() {
        let (reference, others) = (parse(&empty(X86)).unwrap(), [parse(&empty(I686)).unwrap()]);
        let m = compare(&reference, &others);
        let got: Vec<(&str, &str)> = m
            .iter()
            .map(|m| (m.section.as_str(), m.detail.as_str()))
            .collect();
        let own = format!("continue:tower@60:v2:of:{X86}");
        let has = |what: &str| format!("the reference's section has {what}, which it must have");
        assert_eq!(
            got,
            [
                (CHECK, &*has("no `golden <V>/` row")),
                (CHECK, &*has("no `total` row")),
                (DIGESTS, &*has("no `out` line")),
                (TAMPERED, &*has("no `err` line (the refusal's reason)")),
                (
                    "save:tower@60:v2",
                    "the reference's save has 0 `file` lines, must have 1"
                ),
                (own.as_str(), &*has("no want-lines")),
            ],
            "{m:?}"
        );
        assert!(m.iter().all(|m| m.blame == X86), "{m:?}");
        // Two files: one too many is no better.
        let two = file(X86).replace(
            &format!("file 308246 {SHA}\n"),
            &format!("file 308246 {SHA}\nfile 308246 {SHA}\n"),
        );
        let m = compare(&parse(&two).unwrap(), &[parse(&file(I686)).unwrap()]);
        assert!(
            m.iter()
                .any(|m| m.detail == "the reference's save has 2 `file` lines, must have 1"),
            "{m:?}"
        );
    }

    #[test]
    fn control_characters_in_mismatches_are_escaped() {
        // A differing line with an escape sequence, and a note with a tab.
        let bad = file(I686).replace(
            "=== sweeps exit=0\nout slop 0.001 m",
            "=== sweeps exit=3\n# a\tb\nout slop 0.001 m\u{1b}[0m",
        );
        let m = against(&bad);
        assert_eq!(m.len(), 1, "{m:?}");
        let shown = m[0].to_string();
        assert!(
            !shown.chars().any(|c| c.is_control() && c != '\n'),
            "{shown:?}"
        );
        assert!(shown.contains("      a\\tb"), "{shown}");
        let m = against(&file(I686).replace("out slop 0.001 m", "out slop 0.001 m\u{1b}[0m"));
        assert!(
            m[0].to_string().ends_with("'out slop 0.001 m\\u{1b}[0m'"),
            "{}",
            m[0]
        );
    }
}
