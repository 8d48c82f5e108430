import { afterEach, beforeEach } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import '../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog, type Catalog } from '../../src-main/catalog/catalog'
import { Services } from '../../src-main/services/index'

/** A fresh temp folder, catalog and Services for each test (read the fields inside a test). */
export function useServices(prefix: string): { dir: string; cat: Catalog; svc: Services } {
  const t = {} as { dir: string; cat: Catalog; svc: Services }
  beforeEach(() => {
    t.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    t.cat = openCatalog(path.join(t.dir, 'c.sqlite'))
    t.svc = new Services(t.cat)
  })
  afterEach(() => {
    t.svc.dispose()
    t.cat.close()
    fs.rmSync(t.dir, { recursive: true, force: true })
  })
  return t
}
