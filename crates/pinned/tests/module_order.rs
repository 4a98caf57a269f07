//! The wrapper's modules import one way (issue 33): each module uses only modules before it in
//! [`ORDER`], so the house has no import cycle. A new module must take its place here.

/// Leaves first; `lib` re-exports and may use them all.
const ORDER: &[&str] = &[
    "diff",
    "param_fields",
    "format",
    "codec",
    "panic",
    "link",
    "level",
    "baseline",
    "physics_version",
    "error",
    "settings",
    "version",
    "config",
    "validate",
    "snapshot",
    "ccd",
    "upstream",
    "world",
    "lib",
];

/// The modules `source` uses through `crate::` paths, comments and doc comments left out.
fn uses(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in source.lines().map(|l| l.split("//").next().unwrap_or("")) {
        for (i, _) in line.match_indices("crate::") {
            let name: String = line[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() && !found.contains(&name) {
                found.push(name);
            }
        }
    }
    found
}

/// Every use of a module at or after the user in `order`; `sources` are (module, text).
fn violations(order: &[&str], sources: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (module, source) in sources {
        let at = order.iter().position(|m| m == module).expect("listed");
        for used in uses(source) {
            // Items re-exported at the root (`crate::PinnedWorld`) are not module paths.
            match order.iter().position(|m| *m == used) {
                Some(pos) if pos >= at => wrong.push(format!(
                    "{module} uses {used}, which does not come before it"
                )),
                _ => {}
            }
        }
    }
    wrong
}

#[test]
fn every_module_imports_only_modules_before_it() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources: Vec<(String, String)> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    sources.sort();
    let mut names: Vec<&str> = sources.iter().map(|(n, _)| n.as_str()).collect();
    let mut listed = ORDER.to_vec();
    names.sort();
    listed.sort();
    assert_eq!(names, listed, "every module of src/ has its place in ORDER");
    let wrong = violations(ORDER, &sources);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_cycle_is_found() {
    let sources = [
        (
            "config".to_string(),
            "use crate::version::VersionEntry;".to_string(),
        ),
        (
            "version".to_string(),
            "use crate::config::FieldDiff; // crate::world".to_string(),
        ),
    ];
    assert_eq!(
        violations(ORDER, &sources),
        ["version uses config, which does not come before it"]
    );
}
