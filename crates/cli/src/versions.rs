//! `rapier-pinned versions`: the physics-version table and what changes between versions.

use rapier_pinned::PHYSICS_VERSION_CURRENT;
use rapier_pinned::{
    diff_entries, entry, version_table, PhysicsVersion, VersionEntry, PATCH_SERIES,
};

use crate::failure::Failure;
use crate::show::hex;

/// The options of `versions`.
#[derive(clap::Args)]
pub struct Args {
    /// Instead, print every pinned field of physics-version V (floats bit-exact).
    #[arg(long, value_name = "V")]
    fields: Option<PhysicsVersion>,
}

/// Prints the table, or one version's fields; an unknown version is a usage error.
pub fn run(args: Args) -> Result<(), Failure> {
    let text = match args.fields {
        None => table(),
        Some(v) => fields(v).map_err(Failure::Usage)?,
    };
    print!("{text}");
    Ok(())
}

/// A float as the table's text for it: `value (0xbits)`.
fn real(x: f32) -> String {
    format!("{x:?} (0x{:08x})", x.to_bits())
}

/// An entry's heading: `physics-version N`, marked `(current)` for the current one.
fn title(entry: &VersionEntry) -> String {
    if entry.number == PHYSICS_VERSION_CURRENT {
        format!("physics-version {} (current)", entry.number)
    } else {
        format!("physics-version {}", entry.number)
    }
}

/// Every released entry (the pinned fields that are not integration parameters, and the entry
/// digest), then, for each consecutive pair, every field that differs with both values.
fn table() -> String {
    let mut out = String::new();
    for entry in version_table() {
        let g = entry.gravity;
        out += &format!("{}\n", title(entry));
        out += &format!("  rapier3d       {}\n", entry.rapier3d);
        out += &format!("  parry3d        {}\n", entry.parry3d);
        out += &format!("  patch series   {}\n", entry.patch_series);
        if entry.patch_series != PATCH_SERIES {
            // This build's patches differ from the released ones only in code, never in a
            // trajectory: see `rapier_pinned::BIT_IDENTICAL_SERIES`.
            out += &format!("  served by      {} (bit-identical)\n", PATCH_SERIES);
        }
        out += &format!("  scalar         {}\n", entry.scalar);
        out += &format!("  features       {}\n", entry.features.join(","));
        out += &format!("  core_fraction  {}\n", real(entry.core_fraction));
        out += &format!(
            "  gravity        [{:?}, {:?}, {:?}] (0x{:08x}, 0x{:08x}, 0x{:08x})\n",
            g[0],
            g[1],
            g[2],
            g[0].to_bits(),
            g[1].to_bits(),
            g[2].to_bits()
        );
        let c = &entry.choices;
        let d = entry.default_settings();
        out += &format!(
            "  a game chooses gravity (finite, magnitude <= {} x length_unit; default above), \
             tick_hz one of {:?} (default {}), length_unit {} to {} (default {:?})\n",
            c.max_gravity, c.tick_hz, d.tick_hz, c.length_unit[0], c.length_unit[1], d.length_unit
        );
        out += &format!("  entry digest   {}\n", hex(&entry.digest()));
    }
    for pair in version_table().windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        // The version number always differs; every other field that does is a change.
        let diffs: Vec<_> = diff_entries(a, b)
            .into_iter()
            .filter(|d| d.field != "number")
            .collect();
        out += &format!(
            "\nchanges from {} to {} ({} field{} besides the number):\n",
            a.number,
            b.number,
            diffs.len(),
            if diffs.len() == 1 { "" } else { "s" }
        );
        for d in diffs {
            out += &format!("  {}: {} -> {}\n", d.field, d.pinned, d.found);
        }
    }
    out += &format!(
        "\nevery pinned field of a version: rapier-pinned versions --fields V (current: {PHYSICS_VERSION_CURRENT})\n"
    );
    out
}

/// Every pinned field of physics-version `v`, one `name value` line each, then the entry digest.
fn fields(v: PhysicsVersion) -> Result<String, String> {
    let entry = entry(v).map_err(|e| format!("{e} (see `rapier-pinned versions`)"))?;
    let fields = entry.fields();
    let width = fields.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut out = format!("{}: {} pinned fields\n", title(entry), fields.len());
    for (name, value) in &fields {
        out += &format!("{name:<width$}  {value}\n");
    }
    out += &format!("{:<width$}  {}\n", "entry digest", hex(&entry.digest()));
    Ok(out)
}
