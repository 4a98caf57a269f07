#![feature(test)]
#![allow(unused_macros)]

extern crate parry3d;
extern crate rand;
extern crate test;

mod bounding_volume;
mod common;
mod query;
mod support_map;
