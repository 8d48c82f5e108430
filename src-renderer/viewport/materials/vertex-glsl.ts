/**
 * The vertex shader shared by the game-material programs (N64 and PICA): skinning through
 * Babylon's bone includes, per-slot UV transforms (the program's tile/unit matrix after the
 * material's animated UV offset/scale), N64 texgen from the view-space normal (materials.md §2.7),
 * and SHADE: the vertex colour, or for N64 `G_LIGHTING` draws the RSP-style lighting
 * `ambient + max(0, N·L)·colour` with the viewport's one directional light (§2.3, §7).
 */

export interface VertexFlags {
  /** Texture slots with coordinates (2 for N64, 3 for PICA). */
  slots: number
  /** N64 `G_LIGHTING`: SHADE.rgb is lit (when the lighting toggle is on). */
  lit?: boolean
  /** N64 `G_FOG`: SHADE.a is the fog factor (fog is not shown: 0) (§2.8). */
  fog?: boolean
  texgen?: 'sphere' | 'linear'
}

/** Uniforms of the vertex stage (besides Babylon's world/view/viewProjection and bones). */
export function vertexUniforms(slots: number): string[] {
  const out = ['world', 'view', 'viewProjection', 'uUVAnim', 'uVColOn', 'uLightOn', 'uLightDir', 'uLightCol', 'uAmbient']
  for (let k = 0; k < slots; k++) out.push(`uUV${k}a`, `uUV${k}b`)
  return out
}

export function vertexGlsl(f: VertexFlags): string {
  const slots = Array.from({ length: f.slots }, (_, k) => k)
  const texgen = f.texgen === 'sphere' ? 'nv.xy * 0.5 + 0.5' : f.texgen === 'linear' ? 'acos(clamp(nv.xy, -1.0, 1.0)) / 3.14159265' : ''
  return `precision highp float;
attribute vec3 position;
attribute vec3 normal;
attribute vec2 uv;
#ifdef VERTEXCOLOR
attribute vec4 color;
#endif
#include<bonesDeclaration>
uniform mat4 world;
uniform mat4 view;
uniform mat4 viewProjection;
uniform vec4 uUVAnim;
uniform float uVColOn;
uniform float uLightOn;
uniform vec3 uLightDir;
uniform vec3 uLightCol;
uniform vec3 uAmbient;
${slots.map((k) => `uniform vec4 uUV${k}a;\nuniform vec2 uUV${k}b;\nvarying vec2 vUV${k};`).join('\n')}
varying vec4 vColor;
varying vec4 vShade;
varying vec3 vNormalW;
void main(void) {
  mat4 finalWorld = world;
#include<bonesVertex>
  vec4 wp = finalWorld * vec4(position, 1.0);
  gl_Position = viewProjection * wp;
  vec3 n = mat3(finalWorld) * normal;
  float nl = length(n);
  vec3 nw = nl > 0.0 ? n / nl : vec3(0.0, 0.0, 1.0);
  vNormalW = nw;
  vec4 vc = vec4(1.0);
#ifdef VERTEXCOLOR
  vc = mix(vec4(1.0), color, uVColOn);
#endif
  vColor = vc;
  vShade = vc;
${f.lit ? '  if (uLightOn > 0.5) vShade.rgb = clamp(uAmbient + max(dot(nw, uLightDir), 0.0) * uLightCol, 0.0, 1.0) * vc.rgb;\n' : ''}${f.fog ? '  vShade.a = 0.0;\n' : ''}  vec2 base = uv * uUVAnim.zw + uUVAnim.xy;
${texgen ? `  vec3 nv = normalize(mat3(view) * nw);\n  base = ${texgen};\n` : ''}${slots.map((k) => `  vUV${k} = vec2(uUV${k}a.x * base.x + uUV${k}a.z * base.y + uUV${k}b.x, uUV${k}a.y * base.x + uUV${k}a.w * base.y + uUV${k}b.y);`).join('\n')}
}
`
}
