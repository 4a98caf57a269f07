#[macro_use]
extern crate approx;
extern crate parry3d;

mod geometry;
mod query;
