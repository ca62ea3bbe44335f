//! The wanderers: tethered Perlin wandering, obstacle fields and agent footprints, footprint-aware
//! path smoothing, and the sandbox that puts them together (design §4.4 and §4.5).

pub mod comparison;
pub mod crowd;
pub mod field;
pub mod reach;
pub mod sandbox;
pub mod smoothing;
pub mod wander;
