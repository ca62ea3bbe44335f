//! The endless runner: the timing model, the noise-made and certified track, the route planner,
//! the runner's motion and the autopilot (design §4.3).

pub mod autopilot;
pub mod body;
pub mod planner;
pub mod powerups;
pub mod run;
pub mod timing;
pub mod track;
