//! No crate of `crates/` has an import cycle between its modules (issue 46): a module's
//! `crate::` paths name the modules it uses, and following them never leads back to it. The
//! wrapper also pins its modules' order (`crates/pinned/tests/module_order.rs`); this test keeps
//! every crate acyclic without listing their modules by hand.

use std::collections::BTreeMap;
use std::path::Path;

/// The top-level names `source` reaches through `crate::` paths (`crate::a::X`,
/// `crate::{a::X, b}`), comments and doc comments left out.
fn uses(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut add = |name: &str| {
        let name: String = (name.trim().chars())
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && !found.contains(&name) {
            found.push(name);
        }
    };
    // Comments out, lines joined: a group may span lines.
    let code: Vec<&str> = (source.lines())
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let code = code.join("\n");
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        match rest.strip_prefix('{') {
            // A group: each top-level item's first segment (nested groups are a module's).
            Some(group) => {
                let (mut depth, mut item) = (0, String::new());
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => add(&std::mem::take(&mut item)),
                        _ if depth == 0 => item.push(c),
                        _ => {}
                    }
                }
                add(&item);
            }
            None => add(rest),
        }
    }
    found
}

/// Every cycle of `modules` (name, source) through their uses of each other, each as
/// `a -> b -> a` starting from its smallest module; empty when the imports run one way.
fn cycles(modules: &BTreeMap<String, String>) -> Vec<String> {
    let edges: BTreeMap<&str, Vec<String>> = (modules.iter())
        .map(|(name, source)| {
            let used = (uses(source).into_iter())
                .filter(|u| u != name && modules.contains_key(u))
                .collect();
            (name.as_str(), used)
        })
        .collect();
    let mut found = Vec::new();
    for start in edges.keys() {
        // Paths from `start` through modules after it (so each cycle is found once, from its
        // smallest module) that come back to it.
        let mut stack = vec![vec![start.to_string()]];
        while let Some(path) = stack.pop() {
            for next in &edges[path.last().unwrap().as_str()] {
                if next == start {
                    found.push(format!("{} -> {start}", path.join(" -> ")));
                } else if next.as_str() > *start && !path.contains(next) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push(longer);
                }
            }
        }
    }
    found.sort();
    found
}

/// The modules of one crate's `src/` (its binaries in `src/bin/` are crates of their own).
fn modules_of(src: &Path) -> BTreeMap<String, String> {
    (std::fs::read_dir(src).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

#[test]
fn no_crate_has_an_import_cycle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = Vec::new();
    let mut wrong = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        let name = src.parent().unwrap().file_name().unwrap().to_str().unwrap();
        let found = cycles(&modules_of(&src));
        wrong.extend(found.into_iter().map(|c| format!("crates/{name}: {c}")));
        checked.push(name.to_string());
    }
    assert!(checked.len() >= 10, "crates checked: {checked:?}");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_cycle_is_found_through_paths_and_groups() {
    let modules: BTreeMap<String, String> = [
        ("inputs", "use crate::server::INPUT_WINDOW;"),
        (
            "server",
            "use crate::{\n    error::NetError, inputs::{apply, check},\n};",
        ),
        (
            "error",
            "// crate::server in a comment is not a use\nuse crate::wire::X;",
        ),
        ("wire", "pub struct X;"),
    ]
    .into_iter()
    .map(|(n, s)| (n.to_string(), s.to_string()))
    .collect();
    assert_eq!(cycles(&modules), ["inputs -> server -> inputs"]);
    assert_eq!(uses("use crate::{a::{b, c}, d};"), ["a", "d"]);
}
