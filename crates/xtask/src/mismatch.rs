//! What a failed check says: a [`Mismatch`], whom it counts against, and its detail, the first
//! differing line with both values (digest lines by scene and step, continued ticks by tick, a
//! saved file by its size and hash) or the runner's fields that differ. `judge` decides which
//! sections fail and whom to blame; this module only describes a failure, so that every message
//! has one shape whoever found it.

use std::fmt;

use crate::format::{shown, Item, Section};

/// One failed check.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// The target it counts against.
    pub blame: String,
    /// The target whose section it is.
    pub reader: String,
    /// The section.
    pub section: String,
    /// What is wrong: the first differing line with both values, a wrong exit status, ...
    pub detail: String,
    /// More lines for the reader (a failed run's stderr tail, a target's `check` table).
    pub notes: Vec<String>,
}

impl Mismatch {
    /// A failure of `target`'s own section, counted against it, with no notes.
    pub fn own(target: &str, section: &str, detail: impl Into<String>) -> Mismatch {
        Mismatch {
            blame: target.to_string(),
            reader: target.to_string(),
            section: section.to_string(),
            detail: detail.into(),
            notes: Vec::new(),
        }
    }

    /// The one-line form of the failure list: the section and, for another reader, whose.
    pub fn short(&self) -> String {
        if self.reader == self.blame {
            self.section.clone()
        } else {
            format!("{} (run on {})", self.section, self.reader)
        }
    }
}

impl fmt::Display for Mismatch {
    /// `MISMATCH: <reader>: <section>: <detail>`, whom it counts against if not the reader, then
    /// the notes, one an indented line; the files' text with control characters escaped.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "MISMATCH: {}: {}: {}",
            self.reader,
            self.section,
            shown(&self.detail)
        )?;
        if self.reader != self.blame {
            write!(
                f,
                " (counted against {}: its own save of this snapshot failed)",
                self.blame
            )?;
        }
        for note in &self.notes {
            write!(f, "\n    {}", shown(note))?;
        }
        Ok(())
    }
}

/// `the runner differs: ...` when `actual`'s command line, want-exit or want-lines is not the
/// model's (a stale runner on one target), each difference with both values.
pub fn runner_difference(
    ref_name: &str,
    model: &Section,
    target: &str,
    actual: &Section,
) -> Option<String> {
    let command = |c: &Option<String>| c.as_ref().map_or("none".into(), |c| format!("'$ {c}'"));
    let lines = |n: Option<usize>| n.map_or("none".into(), |n| n.to_string());
    let mut diffs = Vec::new();
    if model.command != actual.command {
        diffs.push(format!(
            "command: {ref_name} {}, {target} {}",
            command(&model.command),
            command(&actual.command)
        ));
    }
    if model.want_exit != actual.want_exit {
        diffs.push(format!(
            "want-exit: {ref_name} {}, {target} {}",
            model.want_exit, actual.want_exit
        ));
    }
    if model.want_lines != actual.want_lines {
        diffs.push(format!(
            "want-lines: {ref_name} {}, {target} {}",
            lines(model.want_lines),
            lines(actual.want_lines)
        ));
    }
    (!diffs.is_empty()).then(|| format!("the runner differs: {}", diffs.join("; ")))
}

/// The first line where two sections' compared lines differ, with both values: as `scene 'S'
/// step N: <ref> D, <target> D'` for digest lines (`scene step digest`), `tick N: digest ...`
/// for continued ticks (`tick digest`), `the file differs: ...` for saved files, else the line's
/// place (`stdout line N`, `stderr line N`, or for another kind `item N of the section`) and
/// both lines.
pub fn first_difference(ref_name: &str, model: &Section, target: &str, actual: &Section) -> String {
    let i = model
        .items
        .iter()
        .zip(&actual.items)
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| model.items.len().min(actual.items.len()));
    let (a, b) = (model.items.get(i), actual.items.get(i));
    let Some(first) = a.or(b) else {
        return "no difference".into(); // not reached: the items differ
    };
    // The line's number in its stream (stdout's line N), as the tool printed it.
    let kind = std::mem::discriminant(first);
    let n = 1 + model.items[..i]
        .iter()
        .filter(|x| std::mem::discriminant(*x) == kind)
        .count();
    let at = match first {
        Item::Out(_) => format!("stdout line {n}"),
        Item::Err(_) => format!("stderr line {n}"),
        _ => format!("item {} of the section", i + 1),
    };
    let digest = |d: &str| d.len() == 16 && d.bytes().all(|b| b.is_ascii_hexdigit());
    let number = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    match (a, b) {
        (Some(Item::Out(x)), Some(Item::Out(y))) => {
            let (xs, ys): (Vec<&str>, Vec<&str>) = (x.split(' ').collect(), y.split(' ').collect());
            match (xs.as_slice(), ys.as_slice()) {
                ([scene, step, d1], [s2, t2, d2])
                    if scene == s2 && step == t2 && number(step) && digest(d1) && digest(d2) =>
                {
                    return format!(
                        "scene '{scene}' step {step}: {ref_name} {d1}, {target} {d2} ({at})"
                    );
                }
                ([tick, d1], [t2, d2])
                    if tick == t2 && number(tick) && digest(d1) && digest(d2) =>
                {
                    return format!("tick {tick}: digest {ref_name} {d1}, {target} {d2} ({at})");
                }
                _ => {}
            }
        }
        (Some(x @ Item::File { .. }), Some(y @ Item::File { .. })) => {
            return format!("the file differs: {ref_name} '{x}', {target} '{y}' (bytes, sha256)");
        }
        _ => {}
    }
    let show = |x: Option<&Item>| x.map_or("<the section ends>".to_string(), |x| format!("'{x}'"));
    format!("{at}: {ref_name} {}, {target} {}", show(a), show(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{parse, MAGIC};

    /// The first section of a result file holding just `sections`.
    fn section(sections: &str) -> Section {
        let text = format!("{MAGIC}\ntarget t\nrun-as native\n{sections}");
        parse(&text).unwrap().sections.remove(0)
    }

    #[test]
    fn a_digest_line_is_named_by_scene_and_step_and_a_tick_by_its_number() {
        let a = section("=== digests exit=0\nout ball_drop 1 00000000000000aa\n");
        let b = section("=== digests exit=0\nout ball_drop 1 00000000000000ab\n");
        assert_eq!(
            first_difference("x", &a, "y", &b),
            "scene 'ball_drop' step 1: x 00000000000000aa, y 00000000000000ab (stdout line 1)"
        );
        let a = section("=== c exit=0\nout 61 ede7cafdfa181f29\nout 62 ede7cafdfa181f30\n");
        let b = section("=== c exit=0\nout 61 ede7cafdfa181f29\nout 62 ede7cafdfa181f31\n");
        assert_eq!(
            first_difference("x", &a, "y", &b),
            "tick 62: digest x ede7cafdfa181f30, y ede7cafdfa181f31 (stdout line 2)"
        );
    }

    #[test]
    fn other_lines_are_shown_whole_with_their_place() {
        let a = section("=== s exit=0\nerr refused: a\n");
        let b = section("=== s exit=0\nerr refused: b\n");
        assert_eq!(
            first_difference("x", &a, "y", &b),
            "stderr line 1: x 'err refused: a', y 'err refused: b'"
        );
        let c = section("=== s exit=0\nerr refused: a\nerr-noeol\n");
        assert_eq!(
            first_difference("x", &a, "y", &c),
            "item 2 of the section: x <the section ends>, y 'err-noeol'"
        );
        let sha = |d: char| d.to_string().repeat(64);
        let f = section(&format!("=== save exit=0\nfile 10 {}\n", sha('a')));
        let g = section(&format!("=== save exit=0\nfile 10 {}\n", sha('b')));
        assert!(first_difference("x", &f, "y", &g).starts_with("the file differs: x 'file 10 "));
    }

    #[test]
    fn a_runner_difference_names_every_field_with_both_values() {
        let a = section("=== s exit=0 want-exit=1 want-lines=2\n$ snapshot verify f\n");
        let b = section("=== s exit=0\n");
        assert_eq!(runner_difference("x", &a, "y", &a), None);
        assert_eq!(
            runner_difference("x", &a, "y", &b).unwrap(),
            "the runner differs: command: x '$ snapshot verify f', y none; want-exit: x 1, y 0; \
             want-lines: x 2, y none"
        );
    }

    #[test]
    fn a_mismatch_shows_whom_it_counts_against_and_its_notes_escaped() {
        let mut m = Mismatch::own("y", "verify:s:of:z", "exit 1\r");
        assert_eq!(m.to_string(), "MISMATCH: y: verify:s:of:z: exit 1\\r");
        assert_eq!(m.short(), "verify:s:of:z");
        m.blame = "z".into();
        m.notes = vec!["a\tb".into()];
        assert_eq!(
            m.to_string(),
            "MISMATCH: y: verify:s:of:z: exit 1\\r (counted against z: its own save of this \
             snapshot failed)\n    a\\tb"
        );
        assert_eq!(m.short(), "verify:s:of:z (run on y)");
    }
}
