/** `modbench re mesh` (CLI.md "RE Engine motions"): the skeleton, materials and LODs of a `.mesh.*`. */
import type { Command } from '../../plugin/command'
import { describeMesh } from '../../../src-shared/formats/re'
import { loadMesh } from './skeleton-files'

const r6 = (n: number) => Math.round(n * 1e6) / 1e6

const meshCmd: Command = {
  name: 're mesh',
  summary: 'the skeleton, materials and LODs of an RE Engine .mesh.* (spec re-motlist §15)',
  usage: 're mesh FILE.mesh.* [--json]',
  help: [
    'The layout is chosen from the file suffix (.mesh.1808312334 RE2, .2109108288 RE2/RE3 RT, .2109148288 MH Rise,',
    '.221108797 RE4R, …), else from the version in the header. Vertex and index ranges are checked; geometry is not decoded.',
    'JSON: {"version","bones":[{"index","name","hash","parent","translation","rotation","scale"}],"materials":["name"…],"lods":[{"meshes":[{"material","vertices","triangles","weights"}]}]}',
  ].join('\n'),
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const file = ctx.positionals[0]!
    const mesh = await loadMesh(file)
    for (const w of mesh.warnings) ctx.err(`warning: ${file}: ${w}`)
    const d = describeMesh(mesh)
    if (ctx.json) {
      ctx.printJson(d)
      return 0
    }
    ctx.out(`${file}: mesh ${d.version} (${mesh.layout.game}, layout ${mesh.layout.name}), ${d.bones.length} bones, ${d.materials.length} materials, ${d.lods.length} LOD(s)`)
    for (const b of d.bones) ctx.out(`  bone ${String(b.index).padStart(3)} ${b.name.padEnd(24)} parent ${(b.parent ?? '-').padEnd(24)} T ${b.translation.map(r6).join(' ')}  R ${b.rotation.map(r6).join(' ')}`)
    d.lods.forEach((l, i) => {
      ctx.out(`  LOD ${i}: ${l.meshes.length} submesh(es)`)
      for (const m of l.meshes) ctx.out(`    ${m.material}: ${m.vertices} vertices, ${m.triangles} triangles, ${m.weights} weights per vertex`)
    })
    return 0
  },
}

export const reMeshCommands: Command[] = [meshCmd]
