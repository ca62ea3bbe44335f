//! The endless runner: the timing model, the noise-made and certified track, the route planner,
//! the runner's motion and the autopilot (design §4.3), and the runner as it is seen: its world
//! for every view ([`view`]) and the chase view's painter ([`chase`]).

pub mod autopilot;
pub mod body;
pub mod chase;
pub mod guide;
pub mod planner;
pub mod powerups;
pub mod replay;
pub mod run;
pub mod timing;
pub mod track;
pub mod view;
