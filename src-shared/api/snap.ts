/** Snap domain of the API contract. Channels are `snap:verb`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SnapApi {}
