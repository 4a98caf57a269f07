//! Empty: the tests are upstream parry3d's own files, listed in Cargo.toml.
