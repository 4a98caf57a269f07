//! The determinism matrix's result file: its one definition. Each target's runner
//! (scripts/lib/matrix-target, bash: it runs the tool under qemu, Node's WASI or natively, which
//! only the shell scripts know how to do) writes one; `matrix-compare` reads them with [`parse`].
//! The runner only writes lines of the kinds below; what they mean, which fields a header takes
//! and which section names exist is defined here, and nowhere else (the runner's comment points
//! here; `tests/matrix_target.rs` runs the runner and parses what it wrote).
//!
//! A result file (format 1) is plain text, one item a line, every line ending in `\n`:
//!
//! ```text
//! rapier-pinned matrix-result 1
//! target <triple>
//! run-as <how the target runs: free text>
//! === <section> exit=<status> [want-exit=<status>] [want-lines=<n>] [secs=<wall s>]
//! $ <the tool's arguments>      optional, first after its header; part of the runner
//! out <text>                    a line of the command's stdout (`out ` or `out`: an empty line)
//! out-noeol                     the stdout's last line had no newline
//! err <text>                    a line of its stderr, where stderr is the result (refusals)
//! err-noeol
//! file <bytes> <sha256>         the file the command wrote: size and lowercase hex digest
//! # <text>                      a note for the reader (a failed run's stderr tail); not compared
//! ```
//!
//! `want-exit` (default 0) is the status the section must exit with, `want-lines` the number of
//! `out` lines it must print; both are the runner's, so another target's must be the
//! reference's. A section name is one word of `A-Z a-z 0-9 _ . , : @ + -`. The runner writes
//! `check` (`check --all`), `digests` (every step of every scene), `save:<snapshot>` (e.g.
//! `save:tower@60:v2`: a snapshot's id holds its physics-version as `v<N>`),
//! `verify:<snapshot>:of:<source>` and `continue:<snapshot>:of:<source>` (the cross sections:
//! the reading of `<source>`'s saved file), `tampered` (the refusal of a corrupted file), and
//! others (`sweeps`, `versions-fields-<V>`, ...). How they are judged: `judge`; how they are
//! summed up: `table`.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// The first line of every result file: the format's name and version.
pub const MAGIC: &str = "rapier-pinned matrix-result 1";
/// The golden and conformance check (`check --all`).
pub const CHECK: &str = "check";
/// Every step of every scene.
pub const DIGESTS: &str = "digests";
/// The tampered file's refusal.
pub const TAMPERED: &str = "tampered";
/// A snapshot's save (`save:<snapshot>`), and its readings (`<kind>:<snapshot>:of:<source>`).
pub const SAVE: &str = "save";
/// A reading of a saved snapshot: `verify` it.
pub const VERIFY: &str = "verify";
/// A reading of a saved snapshot: `continue` it some steps, one tick digest a line.
pub const CONTINUE: &str = "continue";
/// The snapshot sections: their kinds, before the first `:` of the name.
const SNAPSHOT_KINDS: [&str; 3] = [SAVE, VERIFY, CONTINUE];

/// Text from a file or the command line as a message shows it: control characters (a CRLF
/// file's `\r`, a tab, an escape) escaped as in Rust source (`\r`, `\t`, `\u{1b}`), the rest as
/// it is.
pub fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

// --- the result file ----------------------------------------------------------------------------

/// One target's result file.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultFile {
    /// The target's triple.
    pub target: String,
    /// How it ran (qemu, Node's WASI, ...): the table's "run as".
    pub run_as: String,
    /// Its sections, in the file's order.
    pub sections: Vec<Section>,
}

impl ResultFile {
    /// The section of this name.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }
}

/// One check's section.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Its name (see the module doc).
    pub name: String,
    /// The command's exit status.
    pub exit: i32,
    /// The status it must exit with (the reference's counts; another target's must be the
    /// same): 0 unless given.
    pub want_exit: i32,
    /// The number of `out` lines it must print, if fixed (the reference's counts; another
    /// target's must be the same).
    pub want_lines: Option<usize>,
    /// Its wall time (informational).
    pub secs: Option<f64>,
    /// The tool's arguments, as its runner gave them (another target's must be the reference's).
    pub command: Option<String>,
    /// The compared lines, in order.
    pub items: Vec<Item>,
    /// The notes (not compared).
    pub notes: Vec<String>,
}

impl Section {
    /// Its stdout lines.
    pub fn outs(&self) -> impl Iterator<Item = &str> {
        self.items.iter().filter_map(|i| match i {
            Item::Out(line) => Some(line.as_str()),
            _ => None,
        })
    }

    /// Its number of stdout lines.
    pub fn out_lines(&self) -> usize {
        self.outs().count()
    }
}

/// A compared line of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A line of stdout.
    Out(String),
    /// stdout's last line had no newline.
    OutNoEol,
    /// A line of stderr.
    Err(String),
    /// stderr's last line had no newline.
    ErrNoEol,
    /// A file the command wrote: its size in bytes and its sha256 in lowercase hex.
    File { size: u64, sha256: String },
}

impl fmt::Display for Item {
    /// The item as its line in the file.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Item::Out(text) => write!(f, "out {text}"),
            Item::OutNoEol => write!(f, "out-noeol"),
            Item::Err(text) => write!(f, "err {text}"),
            Item::ErrNoEol => write!(f, "err-noeol"),
            Item::File { size, sha256 } => write!(f, "file {size} {sha256}"),
        }
    }
}

/// Why a result file does not parse. Lines are numbered from 1. Its message shows the file's
/// text with control characters escaped ([`shown`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ParseError {
    /// The file is not UTF-8 (valid up to this byte offset).
    NotUtf8 { offset: usize },
    /// The file is empty or its last line lacks its newline (a truncated write).
    Truncated,
    /// The first line is not the format's.
    NotAResultFile { found: String },
    /// Line 2 or 3 is not `target <triple>` / `run-as <text>`.
    MissingField {
        line: usize,
        field: &'static str,
        found: String,
    },
    /// A section header that does not parse.
    BadHeader {
        line: usize,
        text: String,
        why: String,
    },
    /// A second section of one name.
    DuplicateSection {
        line: usize,
        name: String,
        first: usize,
    },
    /// A line of no known kind, or one outside a section.
    BadLine {
        line: usize,
        text: String,
        why: &'static str,
    },
}

impl fmt::Display for ParseError {
    /// The reason, naming the line first where there is one.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ParseError::NotUtf8 { offset } => {
                write!(f, "not a result file: not UTF-8 (at byte {offset})")
            }
            ParseError::Truncated => {
                write!(f, "truncated: empty, or its last line has no newline")
            }
            ParseError::NotAResultFile { found } => {
                let found = shown(found);
                write!(f, "not a result file: line 1 is '{found}', not '{MAGIC}'")
            }
            ParseError::MissingField { line, field, found } => {
                let found = shown(found);
                write!(f, "line {line}: expected '{field} ...', found '{found}'")
            }
            ParseError::BadHeader { line, text, why } => {
                let (text, why) = (shown(text), shown(why));
                write!(f, "line {line}: bad section header '{text}': {why}")
            }
            ParseError::DuplicateSection { line, name, first } => {
                write!(
                    f,
                    "line {line}: a second section '{name}' (the first: line {first})"
                )
            }
            ParseError::BadLine { line, text, why } => {
                write!(f, "line {line}: '{}': {why}", shown(text))
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// A section name or triple: one non-empty word of the allowed characters.
pub fn valid_word(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.,:@+-".contains(c))
}

/// Parses a result file's text.
pub fn parse(text: &str) -> Result<ResultFile, ParseError> {
    let Some(body) = text.strip_suffix('\n') else {
        return Err(ParseError::Truncated);
    };
    let mut lines = body.split('\n').enumerate().map(|(i, l)| (i + 1, l));
    let first = lines.next().map(|(_, l)| l).unwrap_or_default();
    if first != MAGIC {
        return Err(ParseError::NotAResultFile {
            found: first.to_string(),
        });
    }
    let mut field = |name: &'static str, number: usize| {
        let (line, text) = lines.next().unwrap_or((number, ""));
        match text.strip_prefix(name).and_then(|t| t.strip_prefix(' ')) {
            Some(value) if !value.is_empty() => Ok(value.to_string()),
            _ => Err(ParseError::MissingField {
                line,
                field: name,
                found: text.to_string(),
            }),
        }
    };
    let target = field("target", 2)?;
    let run_as = field("run-as", 3)?;
    if !valid_word(&target) {
        return Err(ParseError::MissingField {
            line: 2,
            field: "target",
            found: format!("target {target}"),
        });
    }
    let mut sections: Vec<Section> = Vec::new();
    let mut starts: HashMap<String, usize> = HashMap::new();
    for (line, text) in lines {
        let bad = |why| ParseError::BadLine {
            line,
            text: text.to_string(),
            why,
        };
        if let Some(rest) = text.strip_prefix("=== ") {
            let section = header(line, rest)?;
            if let Some(&first) = starts.get(&section.name) {
                return Err(ParseError::DuplicateSection {
                    line,
                    name: section.name,
                    first,
                });
            }
            starts.insert(section.name.clone(), line);
            sections.push(section);
            continue;
        }
        let Some(section) = sections.last_mut() else {
            return Err(bad("before the first section header"));
        };
        if let Some(command) = text.strip_prefix("$ ") {
            if section.command.is_some() || !section.items.is_empty() || !section.notes.is_empty() {
                return Err(bad("a command line must come right after its header"));
            }
            section.command = Some(command.to_string());
        } else if text == "#" || text.starts_with("# ") {
            section
                .notes
                .push(text.get(2..).unwrap_or_default().to_string());
        } else if let Some(item) = item(text) {
            section.items.push(item.map_err(bad)?);
        } else {
            return Err(bad(
                "not a result line (out, err, out-noeol, err-noeol, file, #, $, ===)",
            ));
        }
    }
    Ok(ResultFile {
        target,
        run_as,
        sections,
    })
}

/// A section header's fields, after `=== `.
fn header(line: usize, rest: &str) -> Result<Section, ParseError> {
    let bad = |why: String| ParseError::BadHeader {
        line,
        text: format!("=== {rest}"),
        why,
    };
    let mut words = rest.split(' ');
    let name = words.next().unwrap_or_default();
    if !valid_word(name) {
        return Err(bad(format!(
            "the name '{name}' is not one word of A-Z a-z 0-9 _ . , : @ + -"
        )));
    }
    let mut section = Section {
        name: name.to_string(),
        exit: 0,
        want_exit: 0,
        want_lines: None,
        secs: None,
        command: None,
        items: Vec::new(),
        notes: Vec::new(),
    };
    let mut exit = None;
    let mut seen = BTreeSet::new();
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(bad(format!("'{word}' is not KEY=VALUE")));
        };
        if !seen.insert(key) {
            return Err(bad(format!("{key} given twice")));
        }
        let number = |what: &str| bad(format!("{key}={value}: not {what}"));
        match key {
            "exit" => exit = Some(value.parse().map_err(|_| number("an exit status"))?),
            "want-exit" => {
                section.want_exit = value.parse().map_err(|_| number("an exit status"))?
            }
            "want-lines" => {
                section.want_lines = Some(value.parse().map_err(|_| number("a line count"))?)
            }
            "secs" => match value.parse::<f64>() {
                Ok(s) if s.is_finite() && s >= 0.0 => section.secs = Some(s),
                _ => return Err(number("a number of seconds")),
            },
            _ => {
                return Err(bad(format!(
                    "unknown field '{key}' (exit, want-exit, want-lines, secs)"
                )))
            }
        }
    }
    section.exit = exit.ok_or_else(|| bad("no exit=STATUS".to_string()))?;
    Ok(section)
}

/// A compared line: None if the line is of no compared kind, Some(Err) if it is one but
/// malformed.
fn item(text: &str) -> Option<Result<Item, &'static str>> {
    let stream = |prefix: &str| {
        text.strip_prefix(prefix)
            .filter(|rest| rest.is_empty() || rest.starts_with(' '))
            .map(|rest| rest.get(1..).unwrap_or_default().to_string())
    };
    Some(Ok(match text {
        "out-noeol" => Item::OutNoEol,
        "err-noeol" => Item::ErrNoEol,
        _ => {
            if let Some(line) = stream("out") {
                Item::Out(line)
            } else if let Some(line) = stream("err") {
                Item::Err(line)
            } else {
                let rest = text.strip_prefix("file ")?;
                let parsed = rest.split_once(' ').and_then(|(size, sha)| {
                    let hex = sha.len() == 64
                        && sha
                            .bytes()
                            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
                    Some(Item::File {
                        size: size.parse().ok()?,
                        sha256: hex.then(|| sha.to_string())?,
                    })
                });
                return Some(parsed.ok_or("expected 'file <bytes> <sha256 in lowercase hex>'"));
            }
        }
    }))
}

// --- section names ------------------------------------------------------------------------------

/// `<kind>:<snapshot>:of:<source>` -> (`<kind>:<snapshot>`, `<source>`).
pub fn cross_parts(name: &str) -> Option<(&str, &str)> {
    name.rsplit_once(":of:")
}

/// `<kind>:<snapshot>...` -> (`<kind>`, `<snapshot>`) for the snapshot kinds.
pub fn snapshot_parts(name: &str) -> Option<(&str, &str)> {
    let base = cross_parts(name).map_or(name, |(base, _)| base);
    let (kind, id) = base.split_once(':')?;
    SNAPSHOT_KINDS.contains(&kind).then_some((kind, id))
}

/// `save:<snapshot>` -> `<snapshot>`.
pub fn save_id(name: &str) -> Option<&str> {
    match snapshot_parts(name) {
        Some((SAVE, id)) if cross_parts(name).is_none() => Some(id),
        _ => None,
    }
}

/// The physics-version of a snapshot section: the `v<N>` part of its snapshot's id.
pub fn snapshot_version(name: &str) -> Option<u32> {
    let (_, id) = snapshot_parts(name)?;
    id.split(':')
        .find_map(|part| part.strip_prefix('v').and_then(|n| n.parse().ok()))
}

/// The physics-version of a `check --all` row `golden <V>/ ...`.
pub fn golden_version(row: &str) -> Option<u32> {
    let (v, _) = row.strip_prefix("golden ")?.split_once('/')?;
    v.parse().ok()
}

/// Result files as the runner writes them, for the tests of every module that reads them.
#[cfg(test)]
pub mod fixtures {
    use super::MAGIC;

    pub const SHA: &str = "3f4a000000000000000000000000000000000000000000000000000000000001";
    pub const X86: &str = "x86_64-unknown-linux-gnu";
    pub const I686: &str = "i686-unknown-linux-gnu";
    pub const AARCH64: &str = "aarch64-unknown-linux-gnu";

    /// A good result file of `target`, as the runner writes it, with the cross sections of
    /// every one of `sources`.
    pub fn file_of(target: &str, sources: &[&str]) -> String {
        let mut t = format!("{MAGIC}\ntarget {target}\nrun-as native\n");
        t += "=== check exit=0 secs=1.2\n$ check --all\n";
        t += "out check cases passed failed\n";
        t += "out golden 1/ (scene files) 12 12 0\nout golden 2/ (scene files) 12 12 0\n";
        t += "out conformance snapshots/1 (vectors) 40 40 0\n";
        t += "out conformance snapshots/2 (vectors) 40 40 0\n";
        t += "out conformance sweeps/fixed 10 10 0\nout total 126 126 0\n";
        t += "=== digests exit=0\nout ball_drop 1 00000000000000aa\nout ball_drop 2 00000000000000ab\n";
        t += "=== sweeps exit=0\nout slop 0.001 m\nout\n";
        t += &format!(
            "=== save:tower@60:v2 exit=0\nout saved tower-60-v2.snap\nfile 308246 {SHA}\n"
        );
        for src in sources {
            t += &format!("=== verify:tower@60:v2:of:{src} exit=0\nout ok: tower-60-v2.snap\n");
            t += &format!(
                "=== continue:tower@60:v2:of:{src} exit=0 want-lines=2\nout 61 ede7cafdfa181f29\nout 62 ede7cafdfa181f30\n"
            );
        }
        t += "=== tampered exit=1 want-exit=1\nerr refused: checksum mismatch (kind: ChecksumMismatch)\n";
        t
    }

    /// A good result file of `target`, of a matrix of x86_64 and i686.
    pub fn file(target: &str) -> String {
        file_of(target, &[X86, I686])
    }

    /// A file whose every section is there and holds nothing (a run whose checks printed
    /// nothing), of a matrix of x86_64 and i686.
    pub fn empty(target: &str) -> String {
        let mut t = format!("{MAGIC}\ntarget {target}\nrun-as native\n");
        t += "=== check exit=0\n=== digests exit=0\n=== save:tower@60:v2 exit=0\n";
        for src in [X86, I686] {
            t += &format!("=== verify:tower@60:v2:of:{src} exit=0\n");
            t += &format!("=== continue:tower@60:v2:of:{src} exit=0\n");
        }
        t + "=== tampered exit=1 want-exit=1\n"
    }

    /// The rows of `target` in a table.
    pub fn rows<'a>(table: &'a str, target: &str) -> Vec<&'a str> {
        table.lines().filter(|l| l.starts_with(target)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;
    use super::*;

    #[test]
    fn a_good_file_parses_into_its_sections() {
        let r = parse(&file(X86)).unwrap();
        assert_eq!(r.target, X86);
        assert_eq!(r.run_as, "native");
        assert_eq!(r.sections.len(), 9);
        let check = r.section(CHECK).unwrap();
        assert_eq!((check.exit, check.want_exit, check.secs), (0, 0, Some(1.2)));
        assert_eq!(check.command.as_deref(), Some("check --all"));
        assert_eq!(
            r.section("sweeps").unwrap().items[1],
            Item::Out(String::new())
        );
        let save = r.section("save:tower@60:v2").unwrap();
        assert_eq!(
            save.items[1],
            Item::File {
                size: 308246,
                sha256: SHA.into()
            }
        );
        let tampered = r.section(TAMPERED).unwrap();
        assert_eq!((tampered.exit, tampered.want_exit), (1, 1));
        let cont = r
            .section("continue:tower@60:v2:of:i686-unknown-linux-gnu")
            .unwrap();
        assert_eq!(cont.want_lines, Some(2));
        // Every item prints back as its line.
        assert_eq!(save.items[1].to_string(), format!("file 308246 {SHA}"));
    }

    #[test]
    fn malformed_files_are_typed_errors() {
        let good = file(X86);
        // The line number of the first line of `good` that starts with `prefix`.
        let line_of = |prefix: &str| 1 + good.lines().position(|l| l.starts_with(prefix)).unwrap();
        let (sweeps, digests) = (line_of("=== sweeps"), line_of("=== digests"));
        let cases: Vec<(String, ParseError)> = vec![
            (String::new(), ParseError::Truncated),
            (good.trim_end().to_string(), ParseError::Truncated),
            (
                "hello\n".into(),
                ParseError::NotAResultFile {
                    found: "hello".into(),
                },
            ),
            (
                format!("{MAGIC}\ntarget\nrun-as x\n"),
                ParseError::MissingField {
                    line: 2,
                    field: "target",
                    found: "target".into(),
                },
            ),
            (
                format!("{MAGIC}\ntarget {X86}\n"),
                ParseError::MissingField {
                    line: 3,
                    field: "run-as",
                    found: String::new(),
                },
            ),
            (
                format!("{MAGIC}\ntarget {X86}\nrun-as x\nout stray\n"),
                ParseError::BadLine {
                    line: 4,
                    text: "out stray".into(),
                    why: "before the first section header",
                },
            ),
            (
                good.replace("=== sweeps exit=0", "=== sweeps"),
                ParseError::BadHeader {
                    line: sweeps,
                    text: "=== sweeps".into(),
                    why: "no exit=STATUS".into(),
                },
            ),
            (
                good.replace("=== sweeps exit=0", "=== sweeps exit=zero"),
                ParseError::BadHeader {
                    line: sweeps,
                    text: "=== sweeps exit=zero".into(),
                    why: "exit=zero: not an exit status".into(),
                },
            ),
            (
                good.replace("=== sweeps exit=0", "=== sweeps exit=0 colour=red"),
                ParseError::BadHeader {
                    line: sweeps,
                    text: "=== sweeps exit=0 colour=red".into(),
                    why: "unknown field 'colour' (exit, want-exit, want-lines, secs)".into(),
                },
            ),
            (
                good.replace("=== sweeps exit=0", "=== digests exit=0"),
                ParseError::DuplicateSection {
                    line: sweeps,
                    name: DIGESTS.into(),
                    first: digests,
                },
            ),
            (
                good.replace("out slop", "slop"),
                ParseError::BadLine {
                    line: line_of("out slop"),
                    text: "slop 0.001 m".into(),
                    why: "not a result line (out, err, out-noeol, err-noeol, file, #, $, ===)",
                },
            ),
            (
                good.replace(&format!("file 308246 {SHA}"), "file 308246 XYZ"),
                ParseError::BadLine {
                    line: line_of("file 308246"),
                    text: "file 308246 XYZ".into(),
                    why: "expected 'file <bytes> <sha256 in lowercase hex>'",
                },
            ),
            (
                good.replace("out slop 0.001 m", "out slop 0.001 m\n$ sweeps"),
                ParseError::BadLine {
                    line: line_of("out slop") + 1,
                    text: "$ sweeps".into(),
                    why: "a command line must come right after its header",
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse(&text), Err(want.clone()), "{text}");
            // Every message of a line names it first.
            let line = match &want {
                ParseError::MissingField { line, .. }
                | ParseError::BadHeader { line, .. }
                | ParseError::DuplicateSection { line, .. }
                | ParseError::BadLine { line, .. } => Some(*line),
                _ => None,
            };
            if let Some(line) = line {
                let message = want.to_string();
                assert!(message.starts_with(&format!("line {line}: ")), "{message}");
            }
        }
        assert_eq!(
            ParseError::DuplicateSection {
                line: 16,
                name: DIGESTS.into(),
                first: 13
            }
            .to_string(),
            "line 16: a second section 'digests' (the first: line 13)"
        );
        assert_eq!(
            ParseError::NotUtf8 { offset: 3 }.to_string(),
            "not a result file: not UTF-8 (at byte 3)"
        );
        assert_eq!(
            ParseError::Truncated.to_string(),
            "truncated: empty, or its last line has no newline"
        );
    }

    #[test]
    fn control_characters_in_parse_errors_are_escaped() {
        // A CRLF file: its first line is not the format's, and the message shows why.
        let crlf = file(X86).replace('\n', "\r\n");
        let e = parse(&crlf).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("not a result file: line 1 is '{MAGIC}\\r', not '{MAGIC}'")
        );
        // A CRLF section header.
        let text = format!("{MAGIC}\ntarget {X86}\nrun-as native\n=== sweeps exit=0\r\n");
        let e = parse(&text).unwrap_err();
        assert_eq!(
            e,
            ParseError::BadHeader {
                line: 4,
                text: "=== sweeps exit=0\r".into(),
                why: "exit=0\r: not an exit status".into(),
            }
        );
        assert_eq!(
            e.to_string(),
            "line 4: bad section header '=== sweeps exit=0\\r': exit=0\\r: not an exit status"
        );
    }
}
