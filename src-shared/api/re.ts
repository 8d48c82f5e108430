/** Re domain of the API contract. Channels are `re:verb`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ReApi {}
