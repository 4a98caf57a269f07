//! The sweep vectors on disk (`conformance/sweeps/`), language-neutral:
//!
//! - `fixed.json`: the named reference cases, each with its expected verdict;
//! - `random.csv`: the 10,000 seeded cases (see [`crate::generator`]) with the oracle's verdict.
//!
//! Numbers are decimal; non-finite inputs are the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
//! f32 inputs are written in their shortest round-trip form, f64 results likewise.

use crate::oracle::{first_contact, OracleError, SphereMotion};
use crate::ConformanceError;
use serde::{Deserialize, Serialize};

/// A number that may be non-finite.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Num {
    Finite(f64),
    Special(Special),
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub enum Special {
    NaN,
    Infinity,
    #[serde(rename = "-Infinity")]
    NegInfinity,
}

impl Num {
    pub fn value(self) -> f64 {
        match self {
            Num::Finite(x) => x,
            Num::Special(Special::NaN) => f64::NAN,
            Num::Special(Special::Infinity) => f64::INFINITY,
            Num::Special(Special::NegInfinity) => f64::NEG_INFINITY,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sphere {
    pub start: [Num; 3],
    pub displacement: [Num; 3],
    pub radius: Num,
}

impl Sphere {
    pub fn motion(&self) -> SphereMotion {
        let v = |n: &[Num; 3]| n.map(|x| x.value() as f32);
        SphereMotion {
            start: v(&self.start),
            displacement: v(&self.displacement),
            radius: self.radius.value(),
        }
    }
}

/// The expected verdict of a case.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// First contact at fraction `t` (0 = initial contact).
    Hit { t: f64 },
    /// No contact in this step.
    None,
    /// The input is rejected.
    Error,
}

impl Verdict {
    pub fn of(result: Result<Option<f64>, OracleError>) -> Self {
        match result {
            Ok(Some(t)) => Verdict::Hit { t },
            Ok(None) => Verdict::None,
            Err(_) => Verdict::Error,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FixedCase {
    pub name: String,
    /// What the case exercises.
    pub note: String,
    pub a: Sphere,
    pub b: Sphere,
    pub expect: Verdict,
}

/// Parses `fixed.json`.
pub fn parse_fixed(json: &str) -> Result<Vec<FixedCase>, serde_json::Error> {
    serde_json::from_str(json)
}

/// The header line of `random.csv`.
pub const RANDOM_HEADER: &str =
    "case,a0x,a0y,a0z,dax,day,daz,b0x,b0y,b0z,dbx,dby,dbz,ra,rb,verdict,t";

/// `random.csv` for these cases: inputs and the oracle's verdict.
pub fn random_csv(cases: &[(SphereMotion, SphereMotion)]) -> String {
    let mut out = String::from(RANDOM_HEADER);
    out.push('\n');
    for (i, (a, b)) in cases.iter().enumerate() {
        let mut fields = vec![i.to_string()];
        for v in [a.start, a.displacement, b.start, b.displacement] {
            fields.extend(v.iter().map(|x| x.to_string()));
        }
        fields.push(a.radius.to_string());
        fields.push(b.radius.to_string());
        match Verdict::of(first_contact(a, b)) {
            Verdict::Hit { t } => fields.extend(["hit".to_string(), format!("{t:?}")]),
            Verdict::None => fields.extend(["none".to_string(), String::new()]),
            Verdict::Error => fields.extend(["error".to_string(), String::new()]),
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// Parses `random.csv` back into cases and expected verdicts.
pub fn parse_random(
    csv: &str,
) -> Result<Vec<(SphereMotion, SphereMotion, Verdict)>, ConformanceError> {
    let mut lines = csv.lines();
    if lines.next() != Some(RANDOM_HEADER) {
        return Err(ConformanceError::RandomHeader);
    }
    lines
        .enumerate()
        .map(|(n, line)| {
            let line_number = n + 2;
            let f: Vec<&str> = line.split(',').collect();
            if f.len() != 17 {
                return Err(ConformanceError::RandomFields {
                    line: line_number,
                    fields: f.len(),
                });
            }
            let num = |s: &str| {
                s.parse::<f64>()
                    .map_err(|source| ConformanceError::RandomNumber {
                        line: line_number,
                        source,
                    })
            };
            let v = |i: usize| -> Result<[f32; 3], ConformanceError> {
                Ok([
                    num(f[i])? as f32,
                    num(f[i + 1])? as f32,
                    num(f[i + 2])? as f32,
                ])
            };
            let a = SphereMotion {
                start: v(1)?,
                displacement: v(4)?,
                radius: num(f[13])?,
            };
            let b = SphereMotion {
                start: v(7)?,
                displacement: v(10)?,
                radius: num(f[14])?,
            };
            let verdict = match f[15] {
                "hit" => Verdict::Hit { t: num(f[16])? },
                "none" => Verdict::None,
                "error" => Verdict::Error,
                other => {
                    return Err(ConformanceError::RandomVerdict {
                        line: line_number,
                        verdict: other.to_string(),
                    })
                }
            };
            Ok((a, b, verdict))
        })
        .collect()
}

/// Loads `conformance/sweeps/fixed.json`.
pub fn load_fixed() -> Result<Vec<FixedCase>, ConformanceError> {
    let path = crate::conformance_dir().join("sweeps/fixed.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => parse_fixed(&text).map_err(|source| ConformanceError::Json { path, source }),
        Err(source) => Err(ConformanceError::Io { path, source }),
    }
}

/// Loads `conformance/sweeps/random.csv`.
pub fn load_random() -> Result<Vec<(SphereMotion, SphereMotion, Verdict)>, ConformanceError> {
    let path = crate::conformance_dir().join("sweeps/random.csv");
    match std::fs::read_to_string(&path) {
        Ok(text) => parse_random(&text),
        Err(source) => Err(ConformanceError::Io { path, source }),
    }
}
