// The maze's layer stack (see layers.rs): six textures over the maze, blended back to front in
// one pass, so each pixel of the maze is written once a frame instead of once per layer.

#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var walls_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var walls_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var searched_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(3) var searched_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(4) var ghost_trail_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(5) var ghost_trail_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(6) var trail_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(7) var trail_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(8) var darkness_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(9) var darkness_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(10) var hint_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(11) var hint_sampler: sampler;

// `layer` (straight alpha) over `below` (premultiplied alpha), premultiplied: what the pipeline's
// blending would have made of drawing `layer` over `below`.
fn over(below: vec4<f32>, layer: vec4<f32>) -> vec4<f32> {
    return vec4(layer.rgb * layer.a, layer.a) + below * (1.0 - layer.a);
}

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
    var stack = over(vec4(0.0), textureSample(walls_texture, walls_sampler, mesh.uv));
    stack = over(stack, textureSample(searched_texture, searched_sampler, mesh.uv));
    stack = over(stack, textureSample(ghost_trail_texture, ghost_trail_sampler, mesh.uv));
    stack = over(stack, textureSample(trail_texture, trail_sampler, mesh.uv));
    stack = over(stack, textureSample(darkness_texture, darkness_sampler, mesh.uv));
    stack = over(stack, textureSample(hint_texture, hint_sampler, mesh.uv));
    // Straight alpha again, for the pipeline's blending over whatever lies under the maze.
    return vec4(stack.rgb / max(stack.a, 1e-6), stack.a);
}
