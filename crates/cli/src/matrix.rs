//! `rapier-pinned matrix-compare`: the one comparison of the determinism matrix
//! (scripts/determinism-matrix, docs/testing.md "Determinism matrix"). Each target's runner
//! (scripts/lib/matrix-target) writes one result file; this command parses them, compares every
//! section of every target with the reference's (x86_64's), prints each mismatch (the target, the
//! check, the first differing line with both values) and the summary table, target x
//! physics-version. Exit 1 on any mismatch or missing section (or a target given as `--failed`);
//! 2 on a result file that does not parse (a typed [`ParseError`]) or cannot be read, on a target
//! given twice (among the result files, `--skipped` and `--failed`) and on a malformed
//! `--skipped` or `--failed` value (not `TRIPLE=REASON` with a non-empty reason).
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
//! A section name is one word of `A-Z a-z 0-9 _ . , : @ + -`. The runner writes `check`
//! (`check --all`: its rows give the golden+vectors column, per physics-version), `digests` (the
//! digests column), `save:<snapshot>` (e.g. `save:tower@60:v2`), `verify:<snapshot>:of:<source>`
//! and `continue:<snapshot>:of:<source>` (the snapshots column of version `v<N>`), `tampered`
//! and others (the other column). A section fails when its runner differs from the reference's
//! (its `$` line, `want-exit` or `want-lines`), when its exit status is not the reference's
//! `want-exit` (default 0), when the reference gives `want-lines` and its number of `out` lines
//! differs, or when its `out`, `err`, `-noeol` and `file` lines differ from the reference's.
//! Every target must have exactly the reference's sections, where the cross sections
//! `<kind>:<snapshot>:of:<source>` (and for every `save:<snapshot>`, its `verify:` and
//! `continue:`) are expected for every source among the compared targets and are compared with
//! the reference reading its own file, `<kind>:<snapshot>:of:<reference>` (without that reading,
//! reported missing, each target's is still held to its own `want-exit`). A failure of a cross
//! section is counted against its source when the source's own `save:<snapshot>` failed and the
//! reader's output differs or it refused the file (exit 1): the maker of a bad file, not the
//! readers that then refuse it; a reader that fails otherwise (a crash, another runner, a missing
//! section) counts against the reader. The reference's gates, so that a run whose checks printed
//! nothing is no pass: it must have `check` with a `golden <V>/` row and a `total` row, `digests`
//! with at least one `out` line, `tampered` with an `err` line (the refusal's reason), at least
//! one `save:` section and exactly one `file` line in each, and `want-lines` in each of its
//! continuations of its own files.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::failure::Failure;

/// The first line of every result file: the format's name and version.
const MAGIC: &str = "rapier-pinned matrix-result 1";
/// The golden and conformance check (`check --all`): the golden+vectors column.
const CHECK: &str = "check";
/// Every step of every scene: the digests column.
const DIGESTS: &str = "digests";
/// The tampered file's refusal.
const TAMPERED: &str = "tampered";
/// The sections every reference must have (see the module doc).
const REQUIRED: [&str; 3] = [CHECK, DIGESTS, TAMPERED];
/// A snapshot's save (`save:<snapshot>`), and its readings (`<kind>:<snapshot>:of:<source>`).
const SAVE: &str = "save";
const VERIFY: &str = "verify";
const CONTINUE: &str = "continue";
/// The snapshot sections: their kinds, before the first `:` of the name.
const SNAPSHOT_KINDS: [&str; 3] = [SAVE, VERIFY, CONTINUE];
/// The exit status of a refusal (crates/cli/src/failure.rs): what a reader of a bad file exits.
const REFUSED: i32 = 1;
/// The detail of a section that is not there.
const MISSING: &str = "missing section";

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

/// Text from a file or the command line as a message shows it: control characters (a CRLF
/// file's `\r`, a tab, an escape) escaped as in Rust source (`\r`, `\t`, `\u{1b}`), the rest as
/// it is.
fn shown(text: &str) -> String {
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
    fn section(&self, name: &str) -> Option<&Section> {
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
    fn outs(&self) -> impl Iterator<Item = &str> {
        self.items.iter().filter_map(|i| match i {
            Item::Out(line) => Some(line.as_str()),
            _ => None,
        })
    }

    /// Its number of stdout lines.
    fn out_lines(&self) -> usize {
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
fn valid_word(word: &str) -> bool {
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

// --- the comparison -----------------------------------------------------------------------------

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
    fn own(target: &str, section: &str, detail: impl Into<String>) -> Mismatch {
        Mismatch {
            blame: target.to_string(),
            reader: target.to_string(),
            section: section.to_string(),
            detail: detail.into(),
            notes: Vec::new(),
        }
    }

    /// The one-line form of the failure list: the section and, for another reader, whose.
    fn short(&self) -> String {
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

/// `<kind>:<snapshot>:of:<source>` -> (`<kind>:<snapshot>`, `<source>`).
fn cross_parts(name: &str) -> Option<(&str, &str)> {
    name.rsplit_once(":of:")
}

/// `<kind>:<snapshot>...` -> (`<kind>`, `<snapshot>`) for the snapshot kinds.
fn snapshot_parts(name: &str) -> Option<(&str, &str)> {
    let base = cross_parts(name).map_or(name, |(base, _)| base);
    let (kind, id) = base.split_once(':')?;
    SNAPSHOT_KINDS.contains(&kind).then_some((kind, id))
}

/// `save:<snapshot>` -> `<snapshot>`.
fn save_id(name: &str) -> Option<&str> {
    match snapshot_parts(name) {
        Some((SAVE, id)) if cross_parts(name).is_none() => Some(id),
        _ => None,
    }
}

/// The physics-version of a snapshot section: the `v<N>` part of its snapshot's id.
fn snapshot_version(name: &str) -> Option<u32> {
    let (_, id) = snapshot_parts(name)?;
    id.split(':')
        .find_map(|part| part.strip_prefix('v').and_then(|n| n.parse().ok()))
}

/// The physics-version of a `check --all` row `golden <V>/ ...`.
fn golden_version(row: &str) -> Option<u32> {
    let (v, _) = row.strip_prefix("golden ")?.split_once('/')?;
    v.parse().ok()
}

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

/// `the runner differs: ...` when `actual`'s command line, want-exit or want-lines is not the
/// model's (a stale runner on one target), each difference with both values.
fn runner_difference(
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
fn first_difference(ref_name: &str, model: &Section, target: &str, actual: &Section) -> String {
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

// --- the summary --------------------------------------------------------------------------------

/// The summary table, target x physics-version, as text. A cell is `-` where the reference has
/// nothing to compare (no `golden V/` row of that version, no snapshot of it, no `digests`, no
/// other section), unless that target has a failure there.
fn table(
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

    const SHA: &str = "3f4a000000000000000000000000000000000000000000000000000000000001";
    const X86: &str = "x86_64-unknown-linux-gnu";
    const I686: &str = "i686-unknown-linux-gnu";
    const AARCH64: &str = "aarch64-unknown-linux-gnu";

    /// A good result file of `target`, as the runner writes it, with the cross sections of
    /// every one of `sources`.
    fn file_of(target: &str, sources: &[&str]) -> String {
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
    fn file(target: &str) -> String {
        file_of(target, &[X86, I686])
    }

    /// A file whose every section is there and holds nothing (a run whose checks printed
    /// nothing), of a matrix of x86_64 and i686.
    fn empty(target: &str) -> String {
        let mut t = format!("{MAGIC}\ntarget {target}\nrun-as native\n");
        t += "=== check exit=0\n=== digests exit=0\n=== save:tower@60:v2 exit=0\n";
        for src in [X86, I686] {
            t += &format!("=== verify:tower@60:v2:of:{src} exit=0\n");
            t += &format!("=== continue:tower@60:v2:of:{src} exit=0\n");
        }
        t + "=== tampered exit=1 want-exit=1\n"
    }

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

    /// The rows of `target` in a table.
    fn rows<'a>(table: &'a str, target: &str) -> Vec<&'a str> {
        table.lines().filter(|l| l.starts_with(target)).collect()
    }

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
    fn identical_files_compare_clean() {
        let (reference, others) = both(&file(I686));
        assert_eq!(compare(&reference, &others), vec![]);
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
        let t = table(&reference, &others, &m, &[], &[]);
        assert!(rows(&t, I686).iter().all(|l| l.contains(" FAIL ")), "{t}");
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
        let t = table(&reference, &others, &m, &[], &[]);
        assert!(rows(&t, I686).iter().any(|l| l.contains("FAIL (2)")), "{t}");
        assert!(rows(&t, X86).iter().all(|l| !l.contains("FAIL")), "{t}");
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
        let t = table(&reference, &others, &m, &[], &[]);
        assert!(
            rows(&t, I686)[1].contains(" 2   pass            identical  FAIL (1)"),
            "{t}"
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
        // The table: no pass for the versions the reference checked nothing of.
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

    #[test]
    fn control_characters_in_messages_are_escaped() {
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

    // --- run(): the files on disk, the options ---------------------------------------------------

    /// A directory of result files for one test, removed at the end.
    struct Dir(PathBuf);

    impl Dir {
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
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

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
            Err(Failure::Failed(m)) | Err(Failure::Refused(m)) => panic!("not a usage error: {m}"),
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
