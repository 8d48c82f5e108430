/**
 * CLI.md's output rule for the GARC commands: the shared guard (src-main/node/output-guard.ts),
 * kept under the signature the GARC code calls. An existing output is replaced only with `--force`
 * (exit 1 naming `--force` otherwise); no output, even with `--force`, may be an input, lie inside
 * an input folder, or contain an input; temps of killed runs beside it are removed.
 */
import { guardOutput as guardShared } from '../../node/output-guard'

/** Throws (exit 1) when `out` may not be written; `inputs` are files or folders the command reads. */
export async function guardOutput(out: string, inputs: readonly string[], force: boolean, flag = '--out', kind: 'file' | 'folder' = 'file'): Promise<void> {
  guardShared({ out, inputs, force, flag, kind })
}
