/** Stadium domain of the API contract. Channels are `stadium:verb`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface StadiumApi {}
