/**
 * Running the real Blender (Debian's 3.4, headless) from tests: the driver script, the binary
 * (`BLENDER` overrides), whether CI demands it, and why it cannot run here (or null).
 */
import * as path from 'node:path'
import { spawnSync } from 'node:child_process'

export const blenderScript = path.resolve(import.meta.dirname, 'blender-gltf.py')
export const blender = process.env.BLENDER ?? 'blender'
export const inCi = process.env.CI === 'true' || process.env.CI === '1'

/** Why Blender cannot run here (not installed, or its Python has no numpy, which its glTF add-on needs), or null. */
export function blenderMissing(): string | null {
  const probe = spawnSync(blender, ['-b', '--factory-startup', '--python-expr', 'import numpy; print("NUMPY_OK")'], { encoding: 'utf8', timeout: 60_000 })
  if (probe.error || probe.status === null) return `${blender} is not installed`
  if (!/NUMPY_OK/.test(probe.stdout)) return `${blender}'s Python has no numpy (Debian: apt-get install python3-numpy)`
  return null
}

/** Runs the driver over a jobs file (see blender-gltf.py). */
export function runBlenderJobs(jobsFile: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(blender, ['-b', '--factory-startup', '--python', blenderScript, '--', jobsFile], { encoding: 'utf8', timeout: 170_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}
