//! The chase view, drawn by plain code: the track seen from behind and above the runner in
//! perspective ([`projection`]), the view's own state between frames ([`state`]), what a frame
//! shows as a list of plain data ([`draw_list`]), and the painter that turns the list into
//! triangles ([`painter`]), with the things on the track ([`things`]) and the bodies
//! ([`figures`]). The game's chase plugin feeds it the world and uploads the triangles.

pub mod draw_list;
pub mod figures;
pub mod painter;
pub mod projection;
pub mod state;
mod things;
