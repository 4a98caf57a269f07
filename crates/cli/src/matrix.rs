//! `rapier-pinned matrix-compare`: the one comparison of the determinism matrix
//! (scripts/determinism-matrix, docs/testing.md "Determinism matrix"). Each target's runner
//! (scripts/lib/matrix-target) writes one result file; this command parses them, compares every
//! section of every target with the reference's (x86_64's), prints each mismatch (the target, the
//! check, the first differing line with both values) and the summary table, target x
//! physics-version. Exit 1 on any mismatch or missing section (or a target given as `--failed`),
//! 2 on a result file that does not parse (a typed [`ParseError`]) or cannot be read.
//!
//! A result file (format 1) is plain text, one item a line, every line ending in `\n`:
//!
//! ```text
//! rapier-pinned matrix-result 1
//! target <triple>
//! run-as <how the target runs: free text>
//! === <section> exit=<status> [want-exit=<status>] [want-lines=<n>] [secs=<wall s>]
//! $ <the tool's arguments>      optional, first after its header; not compared
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
//! and others (the other column). A section fails when its exit status is not the reference's
//! `want-exit` (default 0), when the reference gives `want-lines` and its number of `out` lines
//! differs, or when its `out`, `err`, `-noeol` and `file` lines differ from the reference's.
//! Every target must have exactly the reference's sections, where the cross sections
//! `<kind>:<snapshot>:of:<source>` (and for every `save:<snapshot>`, its `verify:` and
//! `continue:`) are expected for every source among the compared targets and are compared with
//! the reference reading its own file, `<kind>:<snapshot>:of:<reference>`. A failure of a cross
//! section is counted against its source when the source's own `save:<snapshot>` failed (the
//! maker of a bad file, not the readers that then refuse it). The reference must have `check`,
//! `digests`, `tampered` and at least one `save:` section.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::failure::Failure;

/// The first line of every result file: the format's name and version.
const MAGIC: &str = "rapier-pinned matrix-result 1";
/// The sections every reference must have (see the module doc).
const REQUIRED: [&str; 3] = ["check", "digests", "tampered"];
/// The snapshot sections: their kinds, before the first `:` of the name.
const SNAPSHOT_KINDS: [&str; 3] = ["save", "verify", "continue"];

/// The options of `matrix-compare`.
#[derive(clap::Args)]
pub struct Args {
    /// The reference target's result file (x86_64's: the golden files are its results).
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
/// read or parsed is a usage error (exit 2); any mismatch, a failed check (exit 1).
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
        println!("  {target}: {reason}");
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

/// `TRIPLE=REASON` options, split.
fn named_reasons(values: &[String], option: &str) -> Result<Vec<(String, String)>, Failure> {
    values
        .iter()
        .map(|v| match v.split_once('=') {
            Some((t, reason)) if valid_word(t) => Ok((t.to_string(), reason.to_string())),
            _ => Err(Failure::Usage(format!(
                "{option} takes TRIPLE=REASON, not '{v}'"
            ))),
        })
        .collect()
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
    /// The status it must exit with (the reference's counts): 0 unless given.
    pub want_exit: i32,
    /// The number of `out` lines it must print, if fixed.
    pub want_lines: Option<usize>,
    /// Its wall time (informational).
    pub secs: Option<f64>,
    /// The tool's arguments (informational).
    pub command: Option<String>,
    /// The compared lines, in order.
    pub items: Vec<Item>,
    /// The notes (not compared).
    pub notes: Vec<String>,
}

impl Section {
    /// Its number of stdout lines.
    fn out_lines(&self) -> usize {
        self.items
            .iter()
            .filter(|i| matches!(i, Item::Out(_)))
            .count()
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

/// Why a result file does not parse. Lines are numbered from 1.
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
                write!(f, "not a result file: line 1 is '{found}', not '{MAGIC}'")
            }
            ParseError::MissingField { line, field, found } => {
                write!(f, "line {line}: expected '{field} ...', found '{found}'")
            }
            ParseError::BadHeader { line, text, why } => {
                write!(f, "line {line}: bad section header '{text}': {why}")
            }
            ParseError::DuplicateSection { line, name, first } => {
                write!(
                    f,
                    "line {line}: a second section '{name}' (the first: line {first})"
                )
            }
            ParseError::BadLine { line, text, why } => write!(f, "line {line}: '{text}': {why}"),
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
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "MISMATCH: {}: {}: {}",
            self.reader, self.section, self.detail
        )?;
        if self.reader != self.blame {
            write!(
                f,
                " (counted against {}: its own save of this snapshot failed)",
                self.blame
            )?;
        }
        for note in &self.notes {
            write!(f, "\n    {note}")?;
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

/// The physics-version of a snapshot section: the `v<N>` part of its snapshot's id.
fn snapshot_version(name: &str) -> Option<u32> {
    let (_, id) = snapshot_parts(name)?;
    id.split(':')
        .find_map(|part| part.strip_prefix('v').and_then(|n| n.parse().ok()))
}

/// Compares every target's sections (the reference's included) with the reference's; returns
/// every failure, in order: plain sections target by target, then the cross sections, then
/// sections the reference does not have.
pub fn compare(reference: &ResultFile, others: &[ResultFile]) -> Vec<Mismatch> {
    let all: Vec<&ResultFile> = std::iter::once(reference).chain(others).collect();
    let sources: Vec<&str> = all.iter().map(|r| r.target.as_str()).collect();
    let mut out = Vec::new();
    for name in REQUIRED {
        if reference.section(name).is_none() {
            out.push(Mismatch {
                blame: reference.target.clone(),
                reader: reference.target.clone(),
                section: name.to_string(),
                detail: "missing from the reference, which must have it".into(),
                notes: Vec::new(),
            });
        }
    }
    let plain: Vec<&Section> = reference
        .sections
        .iter()
        .filter(|s| cross_parts(&s.name).is_none())
        .collect();
    if !plain.iter().any(|s| s.name.starts_with("save:")) {
        out.push(Mismatch {
            blame: reference.target.clone(),
            reader: reference.target.clone(),
            section: "save:*".into(),
            detail: "the reference saved no snapshot (no save: section)".into(),
            notes: Vec::new(),
        });
    }
    // The cross kinds: every one the reference has, and verify + continue of every save.
    let mut bases: Vec<String> = Vec::new();
    let saves = plain.iter().filter_map(|s| s.name.strip_prefix("save:"));
    let implied = saves.flat_map(|id| [format!("verify:{id}"), format!("continue:{id}")]);
    let given = reference
        .sections
        .iter()
        .filter_map(|s| cross_parts(&s.name).map(|(base, _)| base.to_string()));
    for base in implied.chain(given) {
        if !bases.contains(&base) {
            bases.push(base);
        }
    }

    for r in &all {
        for model in &plain {
            let who = &r.target;
            match r.section(&model.name) {
                None => out.push(missing(who, who, &model.name)),
                Some(actual) => {
                    if let Some(m) = judge(reference, model, r, actual, who) {
                        out.push(m);
                    }
                }
            }
        }
    }
    let failed_save = |target: &str, base: &str| {
        let save = snapshot_parts(base).map(|(_, id)| format!("save:{id}"));
        out.iter()
            .any(|m| m.reader == target && Some(&m.section) == save.as_ref())
    };
    let mut cross = Vec::new();
    for base in &bases {
        let model_name = format!("{base}:of:{}", reference.target);
        let model = reference.section(&model_name);
        for r in &all {
            for &src in &sources {
                let name = format!("{base}:of:{src}");
                let blame = if src != r.target && failed_save(src, base) {
                    src
                } else {
                    r.target.as_str()
                };
                match (r.section(&name), model) {
                    (None, _) => cross.push(missing(blame, &r.target, &name)),
                    (Some(actual), Some(model)) => {
                        cross.extend(judge(reference, model, r, actual, blame));
                    }
                    (Some(_), None) => {} // reported as missing from the reference
                }
            }
        }
    }
    out.extend(cross);

    for r in &all {
        for s in &r.sections {
            let expected = match cross_parts(&s.name) {
                None => plain.iter().any(|p| p.name == s.name),
                Some((base, src)) => bases.iter().any(|b| b == base) && sources.contains(&src),
            };
            if !expected {
                out.push(Mismatch {
                    blame: r.target.clone(),
                    reader: r.target.clone(),
                    section: s.name.clone(),
                    detail: format!("an extra section, not in {}'s file", reference.target),
                    notes: Vec::new(),
                });
            }
        }
    }
    out
}

/// A section that is not there.
fn missing(blame: &str, reader: &str, name: &str) -> Mismatch {
    Mismatch {
        blame: blame.to_string(),
        reader: reader.to_string(),
        section: name.to_string(),
        detail: "missing section".into(),
        notes: Vec::new(),
    }
}

/// Judges `actual` (of `r`) against the reference's `model`: its exit status, its number of
/// lines, and (unless it is the model itself) its lines.
fn judge(
    reference: &ResultFile,
    model: &Section,
    r: &ResultFile,
    actual: &Section,
    blame: &str,
) -> Option<Mismatch> {
    let mut notes = Vec::new();
    let detail = if actual.exit != model.want_exit {
        if !actual.notes.is_empty() {
            notes.push("stderr (tail):".to_string());
            notes.extend(actual.notes.iter().map(|n| format!("  {n}")));
        }
        let reference_exit = if std::ptr::eq(model, actual) {
            String::new()
        } else {
            format!("; {}: {}", reference.target, model.exit)
        };
        format!(
            "exit {} (must be {}{reference_exit})",
            actual.exit, model.want_exit
        )
    } else if let Some(n) = model.want_lines.filter(|&n| n != actual.out_lines()) {
        format!("{} lines of stdout, must be {n}", actual.out_lines())
    } else if !std::ptr::eq(model, actual) && model.items != actual.items {
        first_difference(&reference.target, model, &r.target, actual)
    } else {
        return None;
    };
    if actual.name == "check" {
        notes.push(format!("{}'s check --all table:", r.target));
        notes.extend(actual.items.iter().map(|i| format!("  {i}")));
    }
    Some(Mismatch {
        blame: blame.to_string(),
        reader: r.target.clone(),
        section: actual.name.clone(),
        detail,
        notes,
    })
}

/// The first line where two sections' compared lines differ, with both values: as `scene 'S'
/// step N: <ref> D, <target> D'` for digest lines (`scene step digest`), `tick N: digest ...`
/// for continued ticks (`tick digest`), `the file differs: ...` for saved files.
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
        _ => format!("line {} of the section", i + 1),
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

/// The summary table, target x physics-version, as text.
fn table(
    reference: &ResultFile,
    others: &[ResultFile],
    mismatches: &[Mismatch],
    skipped: &[(String, String)],
    failed: &[(String, String)],
) -> String {
    let mut versions = BTreeSet::new();
    if let Some(check) = reference.section("check") {
        for item in &check.items {
            if let Item::Out(line) = item {
                let v = line.strip_prefix("golden ").and_then(|r| r.split_once('/'));
                if let Some(v) = v.and_then(|(v, _)| v.parse::<u32>().ok()) {
                    versions.insert(v);
                }
            }
        }
    }
    versions.extend(
        reference
            .sections
            .iter()
            .filter_map(|s| snapshot_version(&s.name)),
    );
    let snapshots: Vec<&str> = reference
        .sections
        .iter()
        .filter_map(|s| s.name.strip_prefix("save:"))
        .collect();
    let other: Vec<&str> = reference
        .sections
        .iter()
        .map(|s| s.name.as_str())
        .filter(|n| !["check", "digests"].contains(n) && snapshot_parts(n).is_none())
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
    let rows = versions.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    let rows = if rows.is_empty() {
        vec!["-".to_string()]
    } else {
        rows
    };
    for r in std::iter::once(reference).chain(others) {
        let target = r.target.as_str();
        let dg = if counts(target, &|s| s == "digests") != 0 {
            "FAIL"
        } else if target == reference.target {
            "reference"
        } else {
            "identical"
        };
        let oth = counts(target, &|s| {
            s != "check"
                && s != "digests"
                && (snapshot_parts(s).is_none() || snapshot_version(s).is_none())
        });
        for v in &rows {
            let gv = if counts(target, &|s| s == "check") == 0 {
                "pass"
            } else {
                check_cell(reference, r, v)
            };
            let bad = counts(target, &|s| {
                snapshot_version(s).is_some_and(|sv| sv.to_string() == *v)
            });
            let sn = if bad == 0 {
                "ok".to_string()
            } else {
                format!("FAIL ({bad})")
            };
            let oth = if oth == 0 { "ok" } else { "FAIL" };
            line([target, &r.run_as, v, gv, dg, &sn, oth]);
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
fn check_cell(reference: &ResultFile, r: &ResultFile, v: &str) -> &'static str {
    let rows = |f: &ResultFile| -> Vec<String> {
        let Some(check) = f.section("check") else {
            return Vec::new();
        };
        let prefixes = [
            format!("golden {v}/"),
            format!("conformance snapshots/{v} "),
            "conformance sweeps/".to_string(),
        ];
        check
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Out(line)
                    if prefixes.iter().any(|p| line.starts_with(p.as_str()))
                        || (v == "1" && line.starts_with("conformance snapshots/upstream-")) =>
                {
                    Some(line.clone())
                }
                _ => None,
            })
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

    /// A good result file of `target`, as the runner writes it (two targets' cross sections).
    fn file(target: &str) -> String {
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
        for src in ["x86_64-unknown-linux-gnu", "i686-unknown-linux-gnu"] {
            t += &format!("=== verify:tower@60:v2:of:{src} exit=0\nout ok: tower-60-v2.snap\n");
            t += &format!(
                "=== continue:tower@60:v2:of:{src} exit=0 want-lines=2\nout 61 ede7cafdfa181f29\nout 62 ede7cafdfa181f30\n"
            );
        }
        t += "=== tampered exit=1 want-exit=1\nerr refused: checksum mismatch (kind: ChecksumMismatch)\n";
        t
    }
    const X86: &str = "x86_64-unknown-linux-gnu";
    const I686: &str = "i686-unknown-linux-gnu";

    fn both(other: &str) -> (ResultFile, Vec<ResultFile>) {
        (
            parse(&file(X86)).unwrap(),
            vec![parse(other).expect("the other file parses")],
        )
    }

    #[test]
    fn a_good_file_parses_into_its_sections() {
        let r = parse(&file(X86)).unwrap();
        assert_eq!(r.target, X86);
        assert_eq!(r.run_as, "native");
        assert_eq!(r.sections.len(), 9);
        let check = r.section("check").unwrap();
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
        let tampered = r.section("tampered").unwrap();
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
        assert_eq!(
            t.lines().filter(|l| l.starts_with(I686)).count(),
            2,
            "one row per version: {t}"
        );
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
            (I686, "digests")
        );
        assert_eq!(
            m[0].to_string(),
            format!(
                "MISMATCH: {I686}: digests: scene 'ball_drop' step 2: {X86} 00000000000000ab, \
                 {I686} 00000000000000ac (stdout line 2)"
            )
        );
        let t = table(&reference, &others, &m, &[], &[]);
        assert!(
            t.lines()
                .any(|l| l.starts_with(I686) && l.contains(" FAIL ")),
            "{t}"
        );
    }

    #[test]
    fn any_other_differing_line_is_shown_whole() {
        let bad = file(I686).replace("out slop 0.001 m", "out slop 0.002 m");
        let m = compare(&both(&bad).0, &both(&bad).1);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            m[0].to_string(),
            format!(
                "MISMATCH: {I686}: sweeps: stdout line 1: {X86} 'out slop 0.001 m', \
                 {I686} 'out slop 0.002 m'"
            )
        );
        // A line more at the end.
        let bad = file(I686).replace("out slop 0.001 m\nout\n", "out slop 0.001 m\nout\nout\n");
        let m = compare(&both(&bad).0, &both(&bad).1);
        assert_eq!(
            m[0].detail,
            format!("stdout line 3: {X86} <the section ends>, {I686} 'out '")
        );
    }

    #[test]
    fn a_missing_section_fails() {
        let bad = file(I686).replace("=== sweeps exit=0\nout slop 0.001 m\nout\n", "");
        let (reference, others) = both(&bad);
        let m = compare(&reference, &others);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            m[0].to_string(),
            format!("MISMATCH: {I686}: sweeps: missing section")
        );
        // A missing cross section too: the reader did not continue the other's file.
        let bad = file(I686).replace(
            &format!("=== continue:tower@60:v2:of:{X86} exit=0 want-lines=2\nout 61 ede7cafdfa181f29\nout 62 ede7cafdfa181f30\n"),
            "",
        );
        let (reference, others) = both(&bad);
        let m = compare(&reference, &others);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].section, format!("continue:tower@60:v2:of:{X86}"));
        assert_eq!(m[0].blame, I686);
    }

    #[test]
    fn a_different_exit_status_fails_with_the_stderr_tail() {
        let bad = file(I686).replace("=== sweeps exit=0\n", "=== sweeps exit=2\n# error: boom\n");
        let (reference, others) = both(&bad);
        let m = compare(&reference, &others);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            m[0].to_string(),
            format!("MISMATCH: {I686}: sweeps: exit 2 (must be 0; {X86}: 0)\n    stderr (tail):\n      error: boom")
        );
        // A refusal that is not refused: exit 0 where 1 is wanted.
        let bad = file(I686).replace(
            "=== tampered exit=1 want-exit=1",
            "=== tampered exit=0 want-exit=1",
        );
        let m = compare(&both(&bad).0, &both(&bad).1);
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
        let bad = file(I686).replace("checksum mismatch", "bad header");
        let m = compare(&both(&bad).0, &both(&bad).1);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].detail.starts_with("stderr line 1: "),
            "{}",
            m[0].detail
        );
        let bad = file(I686).replacen("out 62 ede7cafdfa181f30\n", "", 1);
        let m = compare(&both(&bad).0, &both(&bad).1);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].detail, "1 lines of stdout, must be 2");
        let bad = file(I686).replacen("out 62 ede7cafdfa181f30", "out 62 ede7cafdfa181f31", 1);
        let m = compare(&both(&bad).0, &both(&bad).1);
        assert_eq!(
            m[0].detail,
            format!(
                "tick 62: digest {X86} ede7cafdfa181f30, {I686} ede7cafdfa181f31 (stdout line 2)"
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
        let m = compare(&parse(&x86).unwrap(), &[parse(&i686).unwrap()]);
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
        let t = table(
            &parse(&x86).unwrap(),
            &[parse(&i686).unwrap()],
            &m,
            &[],
            &[],
        );
        assert!(
            t.lines()
                .any(|l| l.starts_with(I686) && l.contains("FAIL (2)")),
            "{t}"
        );
        assert!(
            t.lines()
                .filter(|l| l.starts_with(X86))
                .all(|l| !l.contains("FAIL")),
            "{t}"
        );
    }

    #[test]
    fn extra_sections_and_a_reference_without_its_gates_fail() {
        let bad = file(I686) + "=== surprise exit=0\n";
        let m = compare(&both(&bad).0, &both(&bad).1);
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
        assert_eq!((m[0].section.as_str(), m[0].blame.as_str()), ("check", X86));
        assert_eq!(
            (m[1].section.as_str(), m[1].blame.as_str()),
            ("check", I686)
        );
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
        assert!(m.iter().any(|m| m.section == "tampered"), "{m:?}");
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
        let rows: Vec<&str> = t.lines().filter(|l| l.starts_with(I686)).collect();
        assert!(rows[0].contains(" 1   pass "), "{t}");
        assert!(rows[1].contains(" 2   FAIL "), "{t}");
    }

    #[test]
    fn skipped_and_failed_targets_get_their_rows() {
        let reference = parse(&file(X86)).unwrap();
        let skipped = [("wasm32-wasip1".to_string(), "no node".to_string())];
        let failed = [("aarch64-unknown-linux-gnu".to_string(), "build".to_string())];
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
    fn malformed_files_are_typed_errors() {
        let good = file(X86);
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
                    line: 16,
                    text: "=== sweeps".into(),
                    why: "no exit=STATUS".into(),
                },
            ),
            (
                good.replace("=== sweeps exit=0", "=== sweeps exit=zero"),
                ParseError::BadHeader {
                    line: 16,
                    text: "=== sweeps exit=zero".into(),
                    why: "exit=zero: not an exit status".into(),
                },
            ),
            (
                good.replace("=== sweeps exit=0", "=== sweeps exit=0 colour=red"),
                ParseError::BadHeader {
                    line: 16,
                    text: "=== sweeps exit=0 colour=red".into(),
                    why: "unknown field 'colour' (exit, want-exit, want-lines, secs)".into(),
                },
            ),
            (
                good.replace("=== sweeps exit=0", "=== digests exit=0"),
                ParseError::DuplicateSection {
                    line: 16,
                    name: "digests".into(),
                    first: 13,
                },
            ),
            (
                good.replace("out slop", "slop"),
                ParseError::BadLine {
                    line: 17,
                    text: "slop 0.001 m".into(),
                    why: "not a result line (out, err, out-noeol, err-noeol, file, #, $, ===)",
                },
            ),
            (
                good.replace(&format!("file 308246 {SHA}"), "file 308246 XYZ"),
                ParseError::BadLine {
                    line: 21,
                    text: "file 308246 XYZ".into(),
                    why: "expected 'file <bytes> <sha256 in lowercase hex>'",
                },
            ),
            (
                good.replace("out slop 0.001 m", "out slop 0.001 m\n$ sweeps"),
                ParseError::BadLine {
                    line: 18,
                    text: "$ sweeps".into(),
                    why: "a command line must come right after its header",
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse(&text), Err(want.clone()), "{text}");
            assert!(!want.to_string().is_empty());
        }
        assert_eq!(
            ParseError::NotUtf8 { offset: 3 }.to_string(),
            "not a result file: not UTF-8 (at byte 3)"
        );
    }
}
