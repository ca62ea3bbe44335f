//! The sandbox's targets: each NPC's Perlin-moved point put on the map, on the nearest cell its
//! body fits within its tether.

use super::Sandbox;
use crate::logic::wanderers::wander::WanderParams;
use rayon::prelude::*;

impl Sandbox {
    /// Moves the noise on and puts each due NPC's target on the map.
    pub(super) fn refresh_targets(&mut self, params: &WanderParams, dt: f32) {
        if self.noise_cells_for_distance != params.wander_max_distance {
            // A new tether: every target is put on the map afresh.
            self.noise_cell.fill(None);
            self.noise_cells_for_distance = params.wander_max_distance;
        }
        let every = self.crowd.begin_step(params, dt);
        let targets: Vec<Option<([f32; 2], [i64; 2])>> = (0..self.crowd.len())
            .into_par_iter()
            .map(|i| {
                if !self.crowd.is_due(i, every) {
                    return None;
                }
                let [x, y] = self.crowd.target_of(i, params);
                let cell = [x.floor() as i64, y.floor() as i64];
                if self.noise_cell[i] == Some(cell) {
                    return None;
                }
                Some((
                    self.target_on_map(i, cell, params.wander_max_distance),
                    cell,
                ))
            })
            .collect();
        for (i, target) in targets.into_iter().enumerate() {
            if let Some((target, cell)) = target {
                self.crowd.target[i] = target;
                self.noise_cell[i] = Some(cell);
            }
        }
        self.crowd.end_step();
    }

    /// The centre of the cell nearest to `noise_cell` (ties to the lower id) that NPC `i`'s body
    /// fits, can walk to from home, and whose centre lies within `tether` of home. Home itself is
    /// such a cell, so there always is one.
    fn target_on_map(&self, i: usize, [nx, ny]: [i64; 2], tether: f32) -> [f32; 2] {
        let home = self.crowd.home[i];
        let (width, height) = (self.field.width() as i64, self.field.height() as i64);
        let reach = self.reach(i);
        // Only cells its body can walk to from home: a target beyond a gap too narrow for it
        // could only be searched for in vain.
        let home_region = reach.region(self.cell_at(home));
        let qualifies = |x: i64, y: i64| {
            let [cx, cy] = [x as f32 + 0.5, y as f32 + 0.5];
            x >= 0
                && y >= 0
                && x < width
                && y < height
                && (cx - home[0]).hypot(cy - home[1]) <= tether
                && home_region.is_some()
                && reach.region(self.field.id(x as usize, y as usize)) == home_region
        };
        // The noise point lies within the tether, and home within a cell of reach beyond it.
        let rings = tether.ceil() as i64 + 2;
        let mut best: Option<(i64, usize)> = None;
        for ring in 0..=rings {
            if best.is_some_and(|(d2, _)| ring * ring > d2) {
                break;
            }
            for y in ny - ring..=ny + ring {
                // The top and bottom rows of the ring whole; between them, its two ends.
                let edge = y == ny - ring || y == ny + ring;
                let stride = if edge { 1 } else { (2 * ring).max(1) as usize };
                for x in (nx - ring..=nx + ring).step_by(stride) {
                    if !qualifies(x, y) {
                        continue;
                    }
                    let d2 = (x - nx).pow(2) + (y - ny).pow(2);
                    let id = self.field.id(x as usize, y as usize);
                    if best.is_none_or(|(best_d2, best_id)| (d2, id) < (best_d2, best_id)) {
                        best = Some((d2, id));
                    }
                }
            }
        }
        best.map_or(home, |(_, id)| self.centre(id))
    }
}
