//! The peers and oracles the benchmarks measure our code beside, compiled once for all of them.

#[path = "../tests/reference/mod.rs"]
pub mod reference;
