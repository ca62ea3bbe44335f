// The title menu's panel fills (see panels.rs): each vertex's colour, already linear and
// premultiplied, for egui's premultiplied blending.

#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
#ifdef VERTEX_COLORS
    return mesh.color;
#else
    return vec4(0.0);
#endif
}
