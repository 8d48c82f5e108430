/** Gf domain of the API contract. Channels are `gf:verb`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface GfApi {}
