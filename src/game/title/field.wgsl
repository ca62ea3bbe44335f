// The title's tile field (see mod.rs): the seed's tile texture, repeated across one quad.

#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var tiles_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var tiles_sampler: sampler;

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
    return textureSample(tiles_texture, tiles_sampler, mesh.uv);
}
