//! What one frame of the chase view shows, as plain data: the ground pieces in sight, the route,
//! and every upright thing (an obstacle's box, a coin, an orb, a tree, a statue, a body, an
//! effect) with how far ahead of the camera it stands, sorted back to front and cut at the
//! distance from which an obstacle is readable. The painter ([`super::painter`]) draws it; tests
//! read it to see what is drawn, and in what order.

use super::figures::{Look, Pose};
use super::projection::{CAMERA_BACK_M, ChaseCamera, FAR_M, Viewed, readable_distance_m};
use super::state::{ChaseState, DUST_S, EffectKind, SPARKLE_S};
use crate::logic::runner::body::RunnerBody;
use crate::logic::runner::powerups::PowerUp;
use crate::logic::runner::track::LaneContent;
use crate::logic::runner::track::SegmentKind;
use crate::logic::runner::view::layout::{CORNER, KERB, LANE_WIDTH, TRACK_WIDTH, lane_offset};
use crate::logic::runner::view::palette::{
    BEAM_COLOUR, LOG_COLOUR, LOG_END, PILLAR_COLOUR, STATUE_COLOUR, WALL_COLOUR, WALL_TOP,
    powerup_colour,
};
use crate::logic::runner::view::scenery::Scenery;
use crate::logic::runner::view::world::{GroundKind, LaidSegment, RunnerWorld};
use crate::logic::runner::view::{GUARDIAN_LANES, GUARDIAN_SWAY_RATE, guardians_behind_m};
use bevy_color::{Color, Luminance};
use bevy_math::Vec2;

/// In its last seconds a power-up's glow blinks, so the player sees it is about to go.
const AURA_BLINK_S: f64 = 2.0;
/// Boxes nearer the camera than this are not drawn, in metres: a box the camera is about to
/// pass over (a wall in the middle lane the runner went round) would fill the window's bottom
/// with its top for a frame.
const BOX_NEAREST_M: f32 = 2.5;
/// How far past the far edge of a junction's kerb its turn sign stands, in metres.
const TURN_SIGN_GAP_M: f32 = 0.6;
/// Where the three coins of a coin line stand, in metres along the segment.
pub const COIN_ALONGS: [f32; 3] = [CORNER - 2.2, CORNER, CORNER + 2.2];

/// A box standing on the ground, drawn face by face.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxShape {
    /// Its corners on the ground, in the camera's frame, counter-clockwise from above.
    pub base: [Viewed; 4],
    /// Its bottom and its top, in metres above the ground.
    pub heights: [f32; 2],
    /// The colour of the face toward the camera (the one the box meets first).
    pub front: Color,
    /// The colour of its top and its sides.
    pub side: Color,
}

/// What an upright thing is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Thing {
    /// A box: a log, a beam or its posts, a wall, a statue.
    Box(BoxShape),
    /// A coin, standing a metre up.
    Coin,
    /// A power-up's orb in its colour.
    Orb(Color),
    /// A tree: its canopy's radius, its trunk's height, its colour.
    Tree {
        /// The canopy's radius, in metres.
        radius: f32,
        /// The trunk's height, in metres.
        trunk: f32,
        /// The canopy's colour.
        colour: Color,
    },
    /// A runner: the player's or the ghost's, posed, with the glows of the power-ups it holds.
    Runner {
        /// How its body is posed.
        pose: Pose,
        /// Its colours.
        look: Look,
        /// The glows to draw round it, innermost first.
        auras: [Option<Color>; 3],
    },
    /// A sign beyond a junction's corner with chevrons pointing the way to turn.
    TurnSign {
        /// The way turns right (else left).
        right: bool,
    },
    /// A temple guardian, swaying as it runs.
    Guardian {
        /// Its sway, in radians.
        sway: f32,
    },
    /// A sparkle or a puff of dust, `age` seconds old; `salt` varies the sparks.
    Effect {
        /// What it looks like.
        kind: EffectKind,
        /// Seconds since it started, on the view's clock.
        age: f32,
        /// Varies one effect from the next.
        salt: usize,
    },
}

/// An upright thing in the camera's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Upright {
    /// How far ahead of the camera it is sorted at, in metres.
    pub ahead: f32,
    /// Where it stands (a box's is its nearest corner).
    pub at: Viewed,
    /// What it is.
    pub thing: Thing,
    /// Its place in the order things were listed: ties keep it.
    order: u32,
}

/// A flat piece of ground in the camera's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundPiece {
    /// Its layer: lower layers are painted first.
    pub layer: f32,
    /// How far ahead its middle is, in metres.
    pub ahead: f32,
    /// Its corners, in the camera's frame.
    pub corners: [Viewed; 4],
    /// Its colour.
    pub colour: Color,
    order: u32,
}

/// What a frame shows besides the world: the camera and the view's state, the bodies, the route
/// and how fast the runner goes.
#[derive(Debug, Clone, Copy)]
pub struct Scene<'a> {
    /// The laid track.
    pub world: &'a RunnerWorld,
    /// The view's state: its heading, clock, effects and shake.
    pub state: &'a ChaseState,
    /// The player's runner.
    pub runner: &'a RunnerBody,
    /// The ghost of the best run, when one runs.
    pub ghost: Option<&'a RunnerBody>,
    /// The planner's route in the world, when it is shown.
    pub route: Option<&'a [Vec2]>,
    /// Seconds the game has run, which sways the guardians.
    pub elapsed_s: f32,
    /// How strong the speed lines are, 0 to 1.
    pub speed_lines: f32,
    /// How far the view is shaken, in pixels.
    pub shake: Vec2,
}

impl<'a> Scene<'a> {
    /// A frame of `runner` running through `world` as `state` sees it: no ghost, no route, no
    /// speed lines, no shake, the guardians unswayed. Set the rest as the frame has them.
    pub fn of(world: &'a RunnerWorld, state: &'a ChaseState, runner: &'a RunnerBody) -> Scene<'a> {
        Scene {
            world,
            state,
            runner,
            ghost: None,
            route: None,
            elapsed_s: 0.0,
            speed_lines: 0.0,
            shake: Vec2::ZERO,
        }
    }
}

/// One frame of the chase view.
#[derive(Debug, Clone, Default)]
pub struct DrawList {
    /// The camera.
    pub camera: Option<ChaseCamera>,
    /// The ground pieces in sight, in painting order.
    pub ground: Vec<GroundPiece>,
    /// The route's points in the camera's frame, when it is shown.
    pub route: Vec<Viewed>,
    /// The upright things from the farthest to the nearest, all within the readable distance.
    pub uprights: Vec<Upright>,
    /// How strong the speed lines are, 0 to 1.
    pub speed_lines: f32,
    /// The view's clock, which moves the speed lines.
    pub clock: f32,
    /// How far the view is shaken, in pixels.
    pub shake: Vec2,
}

/// The painting order of two things given as (layer, metres ahead of the camera, listing
/// order): lower layers first, within a layer the farther first, so that what is nearer covers
/// what it hides, and ties in the order listed.
fn painted_before(a: (f32, f32, u32), b: (f32, f32, u32)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0)
        .then(b.1.total_cmp(&a.1))
        .then(a.2.cmp(&b.2))
}

impl DrawList {
    /// Fills the list (emptied first, its room kept) with what `scene` shows from behind the
    /// runner.
    pub fn build(&mut self, scene: &Scene) {
        self.ground.clear();
        self.route.clear();
        self.uprights.clear();
        let body = scene.runner;
        let layout = scene.world.layout();
        let Some((centre, _)) = layout.track_point(body.distance_m, 0.0) else {
            self.camera = None;
            return;
        };
        let camera = ChaseCamera::behind(centre, scene.state.heading, CAMERA_BACK_M);
        self.camera = Some(camera);
        (self.speed_lines, self.clock, self.shake) =
            (scene.speed_lines, scene.state.clock, scene.shake);
        for segment in scene.world.segments() {
            self.list_ground(&camera, segment);
        }
        self.ground.sort_unstable_by(|a, b| {
            painted_before((a.layer, a.ahead, a.order), (b.layer, b.ahead, b.order))
        });
        if let Some(route) = scene.route {
            self.route
                .extend(route.iter().map(|&point| camera.view(point)));
        }
        let mut lister = Lister {
            camera: &camera,
            list: self,
            readable: readable_distance_m(LANE_WIDTH),
        };
        for segment in scene.world.segments() {
            lister.segment(segment);
        }
        lister.bodies(scene);
        self.uprights.sort_unstable_by(|a, b| {
            painted_before((0.0, a.ahead, a.order), (0.0, b.ahead, b.order))
        });
    }

    /// The ground of one segment in sight. The jungle floor is left out: the land under the
    /// sky covers it already, and drawing it piece by piece would cost a window of pixels.
    fn list_ground(&mut self, camera: &ChaseCamera, segment: &LaidSegment) {
        for quad in &segment.ground_in_world {
            if quad.kind == GroundKind::Jungle {
                continue;
            }
            let corners = quad.corners.map(|corner| camera.view(corner));
            let nearest = corners
                .iter()
                .map(|c| c.ahead)
                .fold(f32::INFINITY, f32::min);
            if nearest > FAR_M {
                continue;
            }
            let order = self.ground.len() as u32;
            self.ground.push(GroundPiece {
                layer: quad.layer,
                ahead: camera.view(quad.centre).ahead,
                corners,
                colour: quad.colour,
                order,
            });
        }
    }
}

/// Lists upright things into a draw list, keeping those within the readable distance.
struct Lister<'a> {
    camera: &'a ChaseCamera,
    list: &'a mut DrawList,
    readable: f32,
}

impl Lister<'_> {
    /// Lists `thing` standing at `at`, sorted at `ahead`, if it is in sight and readable.
    fn push(&mut self, ahead: f32, at: Viewed, thing: Thing) {
        if ahead > 0.0 && ahead < self.readable {
            let order = self.list.uprights.len() as u32;
            self.list.uprights.push(Upright {
                ahead,
                at,
                thing,
                order,
            });
        }
    }

    /// A thing standing at a world point, sorted where it stands.
    fn stand(&mut self, world: Vec2, thing: Thing) {
        let at = self.camera.view(world);
        self.push(at.ahead, at, thing);
    }

    /// A box: `size` metres along and across its frame's axes (`frame` turns a point of it,
    /// along and across, into the world), from `heights[0]` to `heights[1]` above the ground.
    fn boxed(
        &mut self,
        frame: impl Fn(f32, f32) -> Vec2,
        [along, across]: [f32; 2],
        heights: [f32; 2],
        [front, side]: [Color; 2],
    ) {
        let corner = |a: f32, s: f32| self.camera.view(frame(a * along / 2.0, s * across / 2.0));
        let base = [
            corner(-1.0, -1.0),
            corner(-1.0, 1.0),
            corner(1.0, 1.0),
            corner(1.0, -1.0),
        ];
        let nearest = base
            .into_iter()
            .min_by(|a, b| a.ahead.total_cmp(&b.ahead))
            .unwrap_or(base[0]);
        if nearest.ahead < BOX_NEAREST_M {
            return;
        }
        let shape = BoxShape {
            base,
            heights,
            front,
            side,
        };
        self.push(nearest.ahead, nearest, Thing::Box(shape));
    }

    /// The coins, power-ups, obstacles and scenery of a segment.
    fn segment(&mut self, segment: &LaidSegment) {
        let frame = |along: f32, across: f32| segment.frame_point(along, across);
        for (lane, content) in segment.segment.lanes.iter().enumerate() {
            let x = lane_offset(lane as f32);
            let taken = segment.taken[lane];
            let at = |along: f32, across: f32| frame(CORNER + along, x + across);
            match *content {
                LaneContent::Coins if !taken => {
                    for along in COIN_ALONGS {
                        self.stand(segment.place.point(along, x), Thing::Coin);
                    }
                }
                LaneContent::PowerUp(kind) if !taken => {
                    self.stand(frame(CORNER, x), Thing::Orb(powerup_colour(kind)));
                }
                LaneContent::Low => self.boxed(
                    at,
                    [0.9, LANE_WIDTH * 0.92],
                    [0.0, 0.7],
                    [LOG_COLOUR, LOG_END],
                ),
                LaneContent::High => {
                    for side in [-1.0, 1.0] {
                        let post = |a: f32, s: f32| at(a, side * (LANE_WIDTH / 2.0 - 0.25) + s);
                        let colours = [PILLAR_COLOUR, PILLAR_COLOUR.lighter(0.08)];
                        self.boxed(post, [0.4, 0.4], [0.0, 2.0], colours);
                    }
                    let colours = [BEAM_COLOUR, BEAM_COLOUR.lighter(0.1)];
                    self.boxed(at, [0.5, LANE_WIDTH], [1.3, 1.9], colours);
                }
                LaneContent::Block => self.boxed(
                    at,
                    [0.8, LANE_WIDTH * 0.96],
                    [0.0, 2.8],
                    [WALL_COLOUR, WALL_TOP],
                ),
                _ => {}
            }
        }
        if segment.segment.kind.is_junction() {
            // Straight ahead of the runner, just past the far edge of the corner's floor.
            let beyond = CORNER + TRACK_WIDTH / 2.0 + KERB + TURN_SIGN_GAP_M;
            let right = segment.segment.kind == SegmentKind::TurnRight;
            self.stand(frame(beyond, 0.0), Thing::TurnSign { right });
        }
        for &(thing, at) in &segment.scenery {
            match thing {
                Scenery::Tree {
                    radius,
                    colour,
                    trunk,
                    ..
                } => self.stand(
                    frame(at.y, at.x),
                    Thing::Tree {
                        radius,
                        trunk,
                        colour,
                    },
                ),
                Scenery::Statue => self.boxed(
                    |a, s| frame(at.y + a, at.x + s),
                    [0.55, 0.55],
                    [0.0, 1.9],
                    [STATUE_COLOUR, STATUE_COLOUR.darker(0.12)],
                ),
            }
        }
    }

    /// The runner, the ghost, the guardians and the effects.
    fn bodies(&mut self, scene: &Scene) {
        let layout = scene.world.layout();
        let state = scene.state;
        let body = scene.runner;
        let across = lane_offset(body.lateral_lanes() as f32);
        if let Some((feet, _)) = layout.track_point(body.distance_m, across) {
            let pose = Pose::of(body, state.clock, state.ended_at.map(|(at, _)| at));
            // A glow of each power-up held, blinking in its last seconds.
            let blink_off = (state.clock * 6.0).fract() < 0.5;
            let mut auras = [None; 3];
            let held = PowerUp::ALL.into_iter().filter(|&kind| {
                let left = body.powerups.left_s(kind);
                left > 0.0 && !(left < AURA_BLINK_S && blink_off)
            });
            for (slot, kind) in auras.iter_mut().zip(held) {
                *slot = Some(powerup_colour(kind));
            }
            let at = self.camera.view(feet);
            // Drawn over whatever stands within a metre ahead of its feet, such as the wall it
            // ran into: it meets obstacles at their faces.
            let thing = Thing::Runner {
                pose,
                look: Look::Runner,
                auras,
            };
            self.push(at.ahead - 1.0, at, thing);
        }
        if let Some(ghost) = scene.ghost {
            let across = lane_offset(ghost.lateral_lanes() as f32);
            if let Some((feet, _)) = layout.track_point(ghost.distance_m, across) {
                let pose = Pose::of(ghost, state.clock, None);
                let thing = Thing::Runner {
                    pose,
                    look: Look::Ghost,
                    auras: [None; 3],
                };
                self.stand(feet, thing);
            }
        }
        if let Some(gap) = guardians_behind_m(body) {
            let distance = (body.distance_m - gap).max(0.0);
            let sway = (scene.elapsed_s * GUARDIAN_SWAY_RATE).sin() * 0.12;
            for lanes in GUARDIAN_LANES {
                let across = lane_offset(body.lateral_lanes() as f32 + lanes);
                if let Some((feet, _)) = layout.track_point(distance, across) {
                    let sway = sway * lanes.signum();
                    self.stand(feet, Thing::Guardian { sway });
                }
            }
        }
        for (salt, effect) in state.effects.iter().enumerate() {
            let age = (state.clock - effect.born).min(SPARKLE_S.max(DUST_S));
            let thing = Thing::Effect {
                kind: effect.kind,
                age,
                salt,
            };
            self.stand(effect.at, thing);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::difficulty::Difficulty;
    use crate::logic::runner::timing::{
        JUMP_S, LANE_CHANGE_S, REACTION_MARGIN_S, SEGMENT_LENGTH_M, SLIDE_S, Timing,
    };
    use crate::logic::runner::track::{SegmentKind, Track};

    /// A straight track with a wall in the middle lane of every segment, coins left and right.
    fn walled_world() -> (RunnerWorld, Track) {
        let layout = (
            SegmentKind::Straight,
            [LaneContent::Coins, LaneContent::Block, LaneContent::Coins],
        );
        let track = Track::scripted(Difficulty::Normal, vec![layout; 40]);
        let mut world = RunnerWorld::new(1);
        world.lay(track.upcoming(), 0.0);
        (world, track)
    }

    fn walls(list: &DrawList) -> Vec<f32> {
        list.uprights
            .iter()
            .filter(|u| matches!(u.thing, Thing::Box(shape) if shape.front == WALL_COLOUR))
            .map(|u| u.ahead)
            .collect()
    }

    #[test]
    fn obstacles_are_drawn_from_the_distance_they_are_readable_at_and_no_farther() {
        let (world, _) = walled_world();
        let (state, body) = (ChaseState::default(), RunnerBody::new());
        let mut list = DrawList::default();
        list.build(&Scene::of(&world, &state, &body));
        let readable = readable_distance_m(LANE_WIDTH);
        let drawn = walls(&list);
        // Every wall laid whose face is nearer than the readable distance, and none beyond.
        let camera = list.camera.unwrap();
        let laid: Vec<f32> = world
            .segments()
            .map(|s| camera.view(s.frame_point(CORNER - 0.4, 0.0)).ahead)
            .filter(|&ahead| ahead >= BOX_NEAREST_M)
            .collect();
        let expected: Vec<f32> = laid.iter().copied().filter(|&a| a < readable).collect();
        assert!(
            laid.len() > expected.len(),
            "some walls lie past the readable distance"
        );
        assert_eq!(drawn.len(), expected.len(), "{drawn:?} {expected:?}");
        let farthest = drawn.iter().copied().fold(0.0, f32::max);
        assert!(farthest < readable && farthest > readable - SEGMENT_LENGTH_M as f32);
        // The readable distance leaves the runner the time the timing model needs at the
        // top speed: two lane changes and a jump or a slide, with its margin.
        let react_s = 2.0 * LANE_CHANGE_S + JUMP_S.max(SLIDE_S) + REACTION_MARGIN_S;
        let top = Timing::for_difficulty(Difficulty::Hard).max_speed_mps;
        let needed_m = (top * react_s) as f32 + CAMERA_BACK_M;
        assert!(
            farthest > needed_m + 5.0 * SEGMENT_LENGTH_M as f32,
            "{farthest} {needed_m}"
        );
    }

    #[test]
    fn things_are_listed_back_to_front_and_taken_coins_are_not() {
        let (mut world, _) = walled_world();
        let (state, body) = (ChaseState::default(), RunnerBody::new());
        let mut list = DrawList::default();
        list.build(&Scene::of(&world, &state, &body));
        assert!(
            list.uprights
                .windows(2)
                .all(|pair| pair[0].ahead >= pair[1].ahead)
        );
        assert!(
            list.ground
                .windows(2)
                .all(|pair| { (pair[0].layer, -pair[0].ahead) <= (pair[1].layer, -pair[1].ahead) })
        );
        let coins = |list: &DrawList| {
            list.uprights
                .iter()
                .filter(|u| u.thing == Thing::Coin)
                .count()
        };
        let before = coins(&list);
        let runner = list
            .uprights
            .iter()
            .find(|u| {
                matches!(
                    u.thing,
                    Thing::Runner {
                        look: Look::Runner,
                        ..
                    }
                )
            })
            .expect("the runner is drawn");
        assert!((runner.ahead - (CAMERA_BACK_M - 1.0)).abs() < 1e-3);
        let first = world.segments().nth(1).unwrap().segment.index;
        world.take(first, 0);
        list.build(&Scene::of(&world, &state, &body));
        assert_eq!(coins(&list), before - COIN_ALONGS.len());
    }

    #[test]
    fn a_junction_in_sight_has_a_sign_pointing_the_way_to_turn() {
        for (kind, right) in [
            (SegmentKind::TurnRight, true),
            (SegmentKind::TurnLeft, false),
        ] {
            let open = [LaneContent::Empty; 3];
            let mut script = vec![(SegmentKind::Straight, open); 40];
            script[1].0 = kind;
            let track = Track::scripted(Difficulty::Normal, script);
            let mut world = RunnerWorld::new(1);
            world.lay(track.upcoming(), 0.0);
            let (state, body) = (ChaseState::default(), RunnerBody::new());
            let mut list = DrawList::default();
            list.build(&Scene::of(&world, &state, &body));
            let signs: Vec<&Upright> = list
                .uprights
                .iter()
                .filter(|u| matches!(u.thing, Thing::TurnSign { .. }))
                .collect();
            assert_eq!(signs.len(), 1, "one junction in sight, one sign");
            assert_eq!(signs[0].thing, Thing::TurnSign { right });
            // Straight ahead of the runner, past the corner it turns at.
            let junction = world
                .segments()
                .find(|s| s.segment.kind == kind)
                .expect("the junction is laid");
            let camera = list.camera.unwrap();
            let corner = camera.view(junction.frame_point(CORNER, 0.0));
            assert!(signs[0].at.side.abs() < 1e-3, "{:?}", signs[0].at);
            assert!(signs[0].ahead > corner.ahead + TRACK_WIDTH / 2.0);
        }
    }
}
