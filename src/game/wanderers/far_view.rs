//! Wanderers mode: the crowd seen from far. When a cell spans only a few pixels, the bodies are
//! painted into a texture over the field, a texel per cell, instead of drawn as meshes: a software
//! rasteriser fills one large quad far faster than tens of thousands of pixel-sized ones.

use super::view::npc_colour;
use crate::logic::wanderers::sandbox::Sandbox;
use bevy::color::ColorToPacked;

/// Below this many pixels per cell the crowd is painted texel by texel ([`paint_crowd`]) rather
/// than drawn as meshes: a body is then a few pixels, and snapping it to whole cells shows no
/// difference, while home markers (two thirds of a cell) would be specks under the bodies.
const FAR_VIEW_PIXELS_PER_CELL: f32 = 3.0;

/// Paints every body into `texels` (RGBA, a texel per cell of the sandbox's field, row by row
/// from the top), in its NPC's colour, on the whole cells nearest to its rectangle; every other
/// texel is cleared to transparent.
pub(super) fn paint_crowd(sandbox: &Sandbox, colours: &[[u8; 4]], texels: &mut [u8]) {
    texels.fill(0);
    let (width, height) = (sandbox.field.width(), sandbox.field.height());
    for (i, colour) in colours.iter().enumerate().take(sandbox.crowd.len()) {
        let body = sandbox.body(i);
        let (min, max) = (body.min(), body.max());
        // Whole cells from the rounded corners: a body on a cell centre paints exactly its
        // footprint, and one past half a cell paints the next cells over.
        let span = |low: f32, high: f32, cells: usize| {
            let first = (low.round().max(0.0) as usize).min(cells);
            let last = (high.round().max(0.0) as usize).min(cells);
            first..last
        };
        for y in span(min[1], max[1], height) {
            for x in span(min[0], max[0], width) {
                let at = (y * width + x) * 4;
                texels[at..at + 4].copy_from_slice(colour);
            }
        }
    }
}

/// Each NPC's colour as an opaque sRGB texel.
pub(super) fn texel_colours(count: usize) -> Vec<[u8; 4]> {
    (0..count)
        .map(|i| npc_colour(i).to_srgba().to_u8_array())
        .collect()
}

/// Whether a field drawn at `pixels_per_cell` is seen from far (see [`FAR_VIEW_PIXELS_PER_CELL`]).
pub(super) fn seen_from_far(pixels_per_cell: f32) -> bool {
    pixels_per_cell < FAR_VIEW_PIXELS_PER_CELL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_from_far_each_body_is_painted_on_the_cells_nearest_its_rectangle() {
        use crate::logic::wanderers::field::Footprint;
        use crate::logic::wanderers::sandbox::{FootprintMix, SandboxConfig};
        let mut sandbox = Sandbox::new(SandboxConfig {
            seed: 1,
            count: 2,
            width: 10,
            height: 6,
            density: 0.0,
            footprints: FootprintMix::Points,
        });
        // A 2x1 body on the centre of cell (3, 2) covers cells 3 and 4 of row 2; a point body
        // 0.4 of a cell right of the centre of (7, 4) is painted on (7, 4), and past half a
        // cell on (8, 4).
        sandbox.footprints[0] = Footprint::new(2, 1).unwrap();
        sandbox.crowd.position[0] = [3.5, 2.5];
        sandbox.crowd.position[1] = [7.9, 4.5];
        let colours = [[200, 10, 10, 255], [10, 200, 10, 255]];
        let mut texels = vec![7u8; 10 * 6 * 4];
        paint_crowd(&sandbox, &colours, &mut texels);
        fn texel(texels: &[u8], x: usize, y: usize) -> [u8; 4] {
            let at = (y * 10 + x) * 4;
            [texels[at], texels[at + 1], texels[at + 2], texels[at + 3]]
        }
        assert_eq!(texel(&texels, 3, 2), colours[0]);
        assert_eq!(texel(&texels, 4, 2), colours[0]);
        assert_eq!(texel(&texels, 7, 4), colours[1]);
        let painted = texels.chunks_exact(4).filter(|t| t[3] != 0).count();
        assert_eq!(painted, 3, "everything else is cleared");
        sandbox.crowd.position[1] = [8.1, 4.5];
        paint_crowd(&sandbox, &colours, &mut texels);
        assert_eq!(
            (texel(&texels, 7, 4), texel(&texels, 8, 4)),
            ([0; 4], colours[1])
        );
        // A body reaching past the field's right edge paints only the cells inside it (a texel
        // past the edge would be the next row's first, or out of the image).
        sandbox.crowd.position[0] = [9.5, 2.5];
        paint_crowd(&sandbox, &colours, &mut texels);
        assert_eq!(texel(&texels, 9, 2), colours[0]);
        assert_eq!(texel(&texels, 0, 3), [0; 4]);
        let painted = texels.chunks_exact(4).filter(|t| t[3] != 0).count();
        assert_eq!(painted, 2);
    }

    #[test]
    fn a_field_a_few_pixels_a_cell_or_less_is_seen_from_far() {
        assert!(seen_from_far(1.08));
        assert!(seen_from_far(2.9));
        assert!(!seen_from_far(FAR_VIEW_PIXELS_PER_CELL));
        assert!(!seen_from_far(5.0));
    }
}
